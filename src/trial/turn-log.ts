/** Turn logs as the loop writes them, and the counts a trial record derives from them (pure). */
import type { ModelReply, ModelRequestError, ModelTimeoutError } from '../models/types.js';
import type { ToolCallLog, TrialRecord, TurnLog } from '../results/trial.js';
import { errorMessage } from '../util/errors.js';
import { capHeadTail } from '../util/text-cap.js';

/**
 * What one turn may put in the results, per text: far above what any task needs (a whole source
 * file in a write_file), so only a runaway reply is cut, and the results file stays a size that can
 * be written, hashed and read back.
 */
export const MAX_LOGGED_TEXT_CHARS = 64 * 1024;
const MAX_LOGGED_ARGUMENT_CHARS = 64 * 1024;

export function turnLogFrom(turn: number, reply: ModelReply): TurnLog {
  const text = capHeadTail(reply.text, MAX_LOGGED_TEXT_CHARS);
  return {
    turn,
    assistant_text: text.text,
    tool_calls: [],
    elapsed_ms: 0,
    model_latency_ms: reply.latencyMs,
    usage: reply.usage,
    ...(reply.timings === undefined ? {} : { timings: reply.timings }),
    finish_reason: reply.finishReason,
    retries: reply.retries.map((r) => ({ attempt: r.attempt, reason: r.reason, wait_ms: r.waitMs })),
    malformed: reply.malformed,
    ...(text.cutChars > 0 ? { text_truncated: true as const } : {}),
  };
}

/**
 * A turn whose request got no reply: the infrastructure failed, or the model gave none in time (the
 * trial's end reason says which); either way it is no malformed reply of the model.
 */
export function errorTurn(
  turn: number,
  err: ModelRequestError | ModelTimeoutError,
  elapsedMs: number,
): TurnLog {
  return {
    turn,
    assistant_text: '',
    tool_calls: [],
    elapsed_ms: elapsedMs,
    model_latency_ms: 0,
    usage: null,
    finish_reason: null,
    retries: err.retries.map((r) => ({ attempt: r.attempt, reason: r.reason, wait_ms: r.waitMs })),
    malformed: null,
    request_error: errorMessage(err),
  };
}

/** The log entry with its arguments cut to what the results keep; the call itself ran with them whole. */
export function cappedCallLog(log: ToolCallLog): ToolCallLog {
  // The parsed arguments are never longer than the text they came from.
  if (log.raw_arguments.length <= MAX_LOGGED_ARGUMENT_CHARS) return log;
  const cap = (value: unknown): unknown => {
    if (typeof value === 'string') return capHeadTail(value, MAX_LOGGED_ARGUMENT_CHARS).text;
    if (Array.isArray(value)) return value.map(cap);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cap(v)]));
    return value;
  };
  return {
    ...log,
    arguments: log.arguments === null ? null : (cap(log.arguments) as Record<string, unknown>),
    raw_arguments: capHeadTail(log.raw_arguments, MAX_LOGGED_ARGUMENT_CHARS).text,
    arguments_truncated: true,
  };
}

export function summarizeArg(log: ToolCallLog): string {
  const a = log.arguments;
  const v =
    a === null
      ? ''
      : typeof a.command === 'string'
        ? a.command
        : typeof a.path === 'string'
          ? a.path
          : log.mcp !== undefined
            ? log.raw_arguments
            : '';
  return v.length > 160 ? `${v.slice(0, 157)}...` : v;
}

export function sumUsage(turns: TurnLog[]): { prompt_tokens: number; completion_tokens: number } {
  let prompt_tokens = 0;
  let completion_tokens = 0;
  for (const t of turns) {
    prompt_tokens += t.usage?.prompt_tokens ?? 0;
    completion_tokens += t.usage?.completion_tokens ?? 0;
  }
  return { prompt_tokens, completion_tokens };
}

export function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Tool calls by where they came from and by why they were refused. */
export function callCounts(
  turnLogs: readonly TurnLog[],
): Pick<
  TrialRecord,
  | 'native_tool_calls'
  | 'text_tool_calls'
  | 'invalid_tool_call_count'
  | 'missing_argument_count'
  | 'malformed_replies'
  | 'length_cut_replies'
> {
  const calls = turnLogs.flatMap((t) => t.tool_calls);
  return {
    native_tool_calls: calls.filter((c) => c.source === 'native').length,
    text_tool_calls: calls.filter((c) => c.source === 'text').length,
    invalid_tool_call_count: calls.filter(
      (c) => c.invalid === 'unknown_tool' || c.invalid === 'bad_arguments',
    ).length,
    missing_argument_count: calls.filter((c) => c.invalid === 'missing_argument').length,
    // Replies the model got wrong; a request that got no reply (request_error) is not one.
    malformed_replies: turnLogs.filter((t) => t.malformed !== null).length,
    // Replies the server cut at the reply bound (max_tokens): the model did not stop in time.
    length_cut_replies: turnLogs.filter((t) => t.finish_reason === 'length').length,
  };
}
