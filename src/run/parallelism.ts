/**
 * How many trials run at once (--parallel). Parallelism is how a run is carried out, not what it
 * measures: each trial has its own container and its own conversation, so verdicts do not depend on
 * it and it does not make a result non-comparable (nor keep --resume from continuing a run made with
 * another value). It is recorded in the environment, beside the server's slot count, because it can
 * change the times: past the server's slots, requests wait for one, and that wait is in the model time.
 */
import type { EnvironmentServer } from '../results/result-file.js';

/** A number >= 1, or `auto`: the server's slot count when it says it, else 1. */
export type ParallelRequest = number | 'auto';

export interface Parallelism {
  parallel: number;
  /** Said before the run: what `auto` chose and why, or why the request was not followed. */
  note: string | null;
}

export function chooseParallel(requested: ParallelRequest, server: EnvironmentServer | null): Parallelism {
  if (server?.kind === 'embedded') {
    // One context in this process: requests would only queue, and their wait would count as model time.
    if (requested === 1) return { parallel: 1, note: null };
    return {
      parallel: 1,
      note: `--parallel ${requested}: 1 trial at a time (the in-process model answers one request at a time)`,
    };
  }
  const slots = server?.parallel_slots ?? null;
  if (requested === 'auto') {
    if (slots !== null && slots >= 1)
      return { parallel: slots, note: `--parallel auto: ${slots} at a time (the server's slots)` };
    const why =
      server === null
        ? 'there is no model server to ask'
        : `the server (${server.kind}) does not say how many requests it serves at once`;
    return { parallel: 1, note: `--parallel auto: 1 at a time (${why})` };
  }
  if (slots !== null && requested > slots) {
    return {
      parallel: requested,
      note: `warning: --parallel ${requested} but the server serves ${slots} request(s) at once: the others wait for a slot, and that wait counts in their model time`,
    };
  }
  return { parallel: requested, note: null };
}
