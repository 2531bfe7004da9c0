/** Following the engine's JSON progress streams (pull, build, import) to their end. */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';

export interface ProgressEvent {
  stream?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
  aux?: { ID?: string };
}

/**
 * Resolves when the stream ends; rejects with the engine's own message if any event reported an
 * error (the engine sends build and pull failures as events, with HTTP 200).
 */
export function followProgress(
  client: Docker,
  stream: NodeJS.ReadableStream,
  what: string,
  onEvent: (e: ProgressEvent) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: string | null = null;
    client.modem.followProgress(
      stream,
      (err: Error | null) => {
        if (err !== null) reject(new InfraError(`${what} failed: ${err.message}`, { cause: err }));
        else if (failure !== null) reject(new InfraError(`${what} failed: ${failure}`));
        else resolve();
      },
      (event: ProgressEvent) => {
        if (event.error !== undefined) failure ??= event.errorDetail?.message ?? event.error;
        onEvent(event);
      },
    );
  });
}
