/**
 * A deadline on one engine call: an engine that stops answering (a container whose processes are
 * frozen can hang an inspect or a removal) must not stop the run. Past the deadline the call is
 * abandoned (its promise is left to settle unheard) and an InfraError says which call it was.
 */
import { InfraError } from '../../util/errors.js';

/** Default for calls that do no work of their own (inspect, create, start, remove). */
export const ENGINE_CALL_MS = 30_000;

export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new InfraError(`Docker engine: ${what} got no answer within ${Math.ceil(ms / 1000)} s`)),
      ms,
    );
  });
  // An abandoned call that fails later must not surface as an unhandled rejection.
  work.catch(() => {});
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
