/**
 * Deadlines on engine calls. An engine that does not answer (a `docker inspect` or a forced removal
 * stuck behind a frozen `runc init`, say) must not hold the run: every call the sandbox makes has
 * one, and past it the request is aborted and the caller gets an EngineStalled, after which the
 * sandbox abandons the container (sandbox.ts): tainted, removed in the background, replaced at the
 * next reset.
 */
import { InfraError } from '../../util/errors.js';

/** How long a plain engine call (inspect, create, start, update, remove, exec create) may take. */
export const ENGINE_CALL_MS = 30_000;

/** The engine gave no answer to a call within its deadline. */
export class EngineStalled extends InfraError {}

/**
 * `call` with a deadline: past `ms` its request is aborted (the signal is dockerode's
 * `abortSignal`) and the promise rejects with EngineStalled naming `what`.
 */
export function withDeadline<T>(
  call: (signal: AbortSignal) => Promise<T>,
  ms: number,
  what: string,
): Promise<T> {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new EngineStalled(`Docker engine: ${what} got no answer within ${Math.round(ms / 1000)} s`));
      abort.abort();
    }, ms);
  });
  const answer = call(abort.signal);
  // Once the deadline has won, the aborted call's own rejection is nobody's business.
  answer.catch(() => {});
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}
