/**
 * The bound every request puts on the reply (`max_tokens`). Without one, a model that never emits its
 * end token writes until the server's context is full or the request times out: minutes per turn on
 * CPU, and a reply nobody can use. With one, the server cuts it (`finish_reason: "length"`) and the
 * trial goes on as the model's own doing.
 */

/** The default bound: far above any reply a task needs (a whole source file in one write_file). */
export const DEFAULT_REPLY_TOKENS = 4096;

/** The bound never goes below this, however full the context looks: the model must be able to say something. */
export const MIN_REPLY_TOKENS = 256;

/**
 * Characters per token of the prompt estimate. Real tokenizers give 3.5 to 4.5 for English and code
 * in JSON; 3 overestimates the prompt, so the reply bound errs on the side of fitting the context.
 */
const CHARS_PER_TOKEN = 3;

/**
 * `max_tokens` of one request: `chosen` (--max-tokens) when set; otherwise what the context leaves
 * after the prompt (estimated from its characters), at most DEFAULT_REPLY_TOKENS and at least
 * MIN_REPLY_TOKENS. `contextLength` null: the server did not say, and the default stands.
 */
export function replyTokenBound(o: {
  chosen: number | undefined;
  contextLength: number | null;
  promptChars: number;
}): number {
  if (o.chosen !== undefined) return o.chosen;
  if (o.contextLength === null) return DEFAULT_REPLY_TOKENS;
  const left = o.contextLength - Math.ceil(o.promptChars / CHARS_PER_TOKEN);
  return Math.max(MIN_REPLY_TOKENS, Math.min(DEFAULT_REPLY_TOKENS, left));
}
