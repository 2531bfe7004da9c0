import type { ReplyTimings } from '../results/trial.js';

/**
 * Generation and prompt-processing speed of an embedded model, summed over its replies so that one
 * short reply does not decide the figure.
 */
export interface ReplyTiming {
  /** Tokens evaluated for the prompt (cached prefix tokens are not evaluated again). */
  promptEvaluated: number;
  /** Time from the request to the first generated token. */
  promptMs: number;
  completionTokens: number;
  /** Time from the first generated token to the end of the reply. */
  decodeMs: number;
}

export class SpeedMeter {
  private promptTokens = 0;
  private promptMs = 0;
  private decodeTokens = 0;
  private decodeMs = 0;

  add(t: ReplyTiming): void {
    if (t.promptEvaluated > 0 && t.promptMs > 0) {
      this.promptTokens += t.promptEvaluated;
      this.promptMs += t.promptMs;
    }
    // The first token's time belongs to the prompt, so a reply adds (n - 1) tokens of decoding.
    if (t.completionTokens > 1 && t.decodeMs > 0) {
      this.decodeTokens += t.completionTokens - 1;
      this.decodeMs += t.decodeMs;
    }
  }

  generationTokensPerSec(): number | null {
    return rate(this.decodeTokens, this.decodeMs);
  }

  promptTokensPerSec(): number | null {
    return rate(this.promptTokens, this.promptMs);
  }
}

/**
 * One reply's timing in llama-server's `timings` shape, counted as SpeedMeter counts it: the prompt's
 * evaluated tokens over the time to the first token, the tokens after the first over the rest.
 */
export function replyTimings(t: ReplyTiming): ReplyTimings {
  return {
    prompt_tokens: t.promptEvaluated,
    prompt_ms: Math.round(Math.max(0, t.promptMs) * 1000) / 1000,
    predicted_tokens: Math.max(0, t.completionTokens - 1),
    predicted_ms: Math.round(Math.max(0, t.decodeMs) * 1000) / 1000,
  };
}

function rate(tokens: number, ms: number): number | null {
  if (tokens === 0 || ms <= 0) return null;
  return Math.round((tokens / ms) * 1000 * 10) / 10;
}
