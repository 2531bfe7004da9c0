/**
 * What the scripted server can answer, and how each answer becomes an OpenAI wire reply.
 * See scripted-server.ts for the server itself.
 */
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { ScriptedCall, ScriptedTurn } from '../../src/models/scripted.js';

/** The request body as the client sent it (parsed JSON, trusted to be a chat request). */
export type ChatRequestBody = ChatCompletionCreateParamsNonStreaming;

interface ReplyTiming {
  /** Wait this long before answering (longer than the client timeout to test timeouts). */
  delayMs?: number;
}

interface ReplyExtras extends ReplyTiming {
  /** Defaults to 'tool_calls' when the reply has calls, else 'stop'. */
  finishReason?: string | null;
  /** Defaults to rough counts from the request and reply sizes; null leaves `usage` out. */
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
}

export type ScriptedReply =
  /** Native tool calls: `tool_calls` with JSON-string arguments and fresh server ids. */
  | ({ calls: ScriptedCall[]; text?: string } & ReplyExtras)
  /** Plain assistant text, e.g. a final answer or a text-format tool call to be parsed. */
  | ({ text: string; reasoning?: string } & ReplyExtras)
  /** Raw `tool_calls` wire objects, sent as given (object arguments, missing ids...). */
  | ({ toolCalls: unknown[]; text?: string | null } & ReplyExtras)
  /** A raw `choices[0].message` object, sent as given. */
  | ({ message: unknown } & ReplyExtras)
  /**
   * An HTTP error; `retryAfter` becomes the Retry-After header (seconds or an HTTP date). The body is
   * `{error: {message: error}}`, or `errorBody` as given (a server's own error shape).
   */
  | ({ status: number; retryAfter?: string | number; error?: string; errorBody?: unknown } & ReplyTiming)
  /** Connection dropped: before any response, or after the headers and half a body. */
  | ({ drop: 'before-headers' | 'mid-body' } & ReplyTiming)
  /** A 200 with this exact body: a string as-is (garbage), anything else JSON-encoded. */
  | ({ body: unknown; contentType?: string } & ReplyTiming);

/** Replies for a whole scripted run: one native-call reply per turn. */
export function turnsToReplies(turns: readonly ScriptedTurn[]): ScriptedReply[] {
  return turns.map((turn) =>
    turn.text === undefined ? { calls: turn.calls } : { calls: turn.calls, text: turn.text },
  );
}

/** The content of the last tool message in a request, for scripts that answer according to it. */
export function lastToolResult(body: ChatRequestBody): string | null {
  for (let i = body.messages.length - 1; i >= 0; i--) {
    const message = body.messages[i];
    if (message?.role === 'tool')
      return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  }
  return null;
}

export type ChatReply = Extract<
  ScriptedReply,
  { calls: unknown } | { text: string } | { toolCalls: unknown } | { message: unknown }
>;

/** The `choices[0].message` of a chat reply; `nextId` numbers server tool-call ids. */
export function wireMessage(reply: ChatReply, nextId: () => string): unknown {
  if ('message' in reply) return reply.message;
  if ('toolCalls' in reply)
    return { role: 'assistant', content: reply.text ?? null, tool_calls: reply.toolCalls };
  if ('calls' in reply) {
    const toolCalls = reply.calls.map((c) => ({
      id: nextId(),
      type: 'function',
      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
    }));
    return { role: 'assistant', content: reply.text ?? null, tool_calls: toolCalls };
  }
  return {
    role: 'assistant',
    content: reply.text,
    ...(reply.reasoning === undefined ? {} : { reasoning_content: reply.reasoning }),
  };
}

/** A full chat.completion object around `message`. */
export function completionBody(
  model: string,
  reply: ChatReply,
  message: unknown,
  requestBytes: number,
): unknown {
  const hasCalls =
    typeof message === 'object' &&
    message !== null &&
    'tool_calls' in message &&
    Array.isArray(message.tool_calls);
  const finishReason =
    reply.finishReason !== undefined ? reply.finishReason : hasCalls ? 'tool_calls' : 'stop';
  // Rough but deterministic token counts, so usage accounting has numbers to add up.
  const usage =
    reply.usage === undefined
      ? {
          prompt_tokens: Math.ceil(requestBytes / 4),
          completion_tokens: Math.ceil(JSON.stringify(message).length / 4),
        }
      : reply.usage;
  return {
    id: `chatcmpl-scripted-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    ...(usage === null
      ? {}
      : { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
  };
}
