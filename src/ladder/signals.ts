/**
 * The ladder owns SIGINT/SIGTERM (runBench runs with its own handlers off and the ladder's abort
 * signal): the first aborts the rung in flight, whose trials stop, containers go and server is
 * stopped; a second exits at once, and the servers' exit hooks SIGKILL what is left.
 */
import { InterruptedError } from '../util/errors.js';

export function onLadderSignals(controller: AbortController, note: (line: string) => void): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(130);
    note(
      `${signal}: stopping the ladder, removing containers and stopping the model server (press Ctrl-C again to exit at once)...`,
    );
    controller.abort(new InterruptedError(signal));
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
