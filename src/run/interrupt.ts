/**
 * How a run, or a ladder of runs, is stopped from outside. The first SIGINT/SIGTERM aborts (what
 * was running cleans up and is saved); a second exits at once, for a cleanup that hangs. A caller
 * that owns the signals (the ladder, for the run of each rung) passes its abort signal instead,
 * which stops this one as a first signal would.
 */
import { InterruptedError } from '../util/errors.js';

export interface InterruptOptions {
  /** Install SIGINT/SIGTERM handlers (the CLI does; tests and callers that own the signals do not). */
  handleSignals: boolean;
  /** An abort from outside, taken as a first signal. */
  signal?: AbortSignal;
  /** What a first signal says it does, e.g. `stopping, removing containers`. */
  stopping: string;
  note: (line: string) => void;
  /**
   * Called at every stop request, signal or outside abort, after the abort: removes what the
   * trials in flight run on now, rather than when each notices the abort. Must be idempotent.
   */
  onStop?: () => void;
}

export interface Interrupt {
  /** Aborted on the first signal (reason: InterruptedError) or with the outside signal's reason. */
  readonly signal: AbortSignal;
  /** Removes the handlers and the outside link. */
  release(): void;
}

export function createInterrupt(o: InterruptOptions): Interrupt {
  const controller = new AbortController();
  const stop = (reason: unknown): void => {
    controller.abort(reason);
    o.onStop?.();
  };
  const unlink = linkAbort(o.signal, stop);
  const unhandle = o.handleSignals
    ? onSignals((signal) => {
        if (controller.signal.aborted) process.exit(130);
        o.note(`${signal}: ${o.stopping} (press Ctrl-C again to exit at once)...`);
        stop(new InterruptedError(signal));
      })
    : () => {};
  return {
    signal: controller.signal,
    release() {
      unhandle();
      unlink();
    },
  };
}

function onSignals(handler: (signal: NodeJS.Signals) => void): () => void {
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}

function linkAbort(signal: AbortSignal | undefined, stop: (reason: unknown) => void): () => void {
  if (signal === undefined) return () => {};
  const abort = (): void => stop(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}
