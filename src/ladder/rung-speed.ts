/** A rung's prompt and generation speed, from the server's own `timings` of each reply (llama-server). */
import type { ResultFile } from '../results/result-file.js';

export interface RungSpeed {
  /** Tokens per second; null when no reply was timed. */
  prompt_tps: number | null;
  generation_tps: number | null;
}

/** Tokens over milliseconds summed over every timed reply of every trial (so long replies weigh more). */
export function rungSpeed(results: readonly ResultFile[]): RungSpeed {
  const sum = { prompt_tokens: 0, prompt_ms: 0, predicted_tokens: 0, predicted_ms: 0 };
  for (const turn of results.flatMap((r) => r.trials.flatMap((t) => t.turn_logs))) {
    if (turn.timings === undefined) continue;
    for (const key of Object.keys(sum) as (keyof typeof sum)[]) sum[key] += turn.timings[key];
  }
  const rate = (tokens: number, ms: number): number | null =>
    ms > 0 ? Math.round((tokens / ms) * 1000 * 10) / 10 : null;
  return {
    prompt_tps: rate(sum.prompt_tokens, sum.prompt_ms),
    generation_tps: rate(sum.predicted_tokens, sum.predicted_ms),
  };
}
