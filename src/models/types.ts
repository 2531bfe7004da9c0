/** The clean internal shapes of a chat model; wire shapes stay inside each backend. */
import type { ModelServerFailureKind, ReplyTimings, TokenUsage, ToolCallSource } from '../results/trial.js';

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** Messages in OpenAI chat form, which every backend converts from. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls: AssistantToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

interface AssistantToolCall {
  id: string;
  name: string;
  /** Arguments exactly as the model sent them (a JSON string). */
  rawArguments: string;
}

export interface ParsedToolCall {
  /** Unique within a trial. */
  id: string;
  name: string;
  rawArguments: string;
  /** null when the arguments were not a JSON object. */
  arguments: Record<string, unknown> | null;
  source: ToolCallSource;
}

/** One retry the client made before getting this reply: never hidden in latency. */
export interface RetryRecord {
  attempt: number;
  reason: string;
  waitMs: number;
}

export interface ModelReply {
  /** Assistant text with any text-format tool calls removed. */
  text: string;
  toolCalls: ParsedToolCall[];
  usage: TokenUsage | null;
  /** The server's own timing of the reply (llama-server), when it sent one. */
  timings?: ReplyTimings;
  finishReason: string | null;
  /** Wall time of the successful request (retries' waits are in `retries`). */
  latencyMs: number;
  retries: RetryRecord[];
  /** Set when the reply could not be understood (e.g. a tool call whose JSON is broken). */
  malformed: string | null;
}

/** What a server says about itself; recorded in every result's environment. */
export interface ServerInfo {
  kind: 'llama-server' | 'ollama' | 'lmstudio' | 'openai-compatible' | 'embedded' | 'builtin';
  baseUrl: string | null;
  version: string | null;
  contextLength: number | null;
}

export interface ChatModel {
  /** Name as recorded in results (e.g. "qwen3:8b", "oracle"). */
  readonly name: string;
  /**
   * Set on a scripted model that replays the task's reference solution (`--model oracle`,
   * `baseline:reference`, `baseline:comply-all`): a Harbor task's oracle call then runs as Harbor's
   * oracle does (src/agent/harbor-oracle.ts). Never set on a real model.
   */
  readonly replaysReference?: true;
  complete(
    messages: readonly ChatMessage[],
    tools: readonly ToolSpec[],
    signal?: AbortSignal,
  ): Promise<ModelReply>;
}

/** What went wrong on the server's side of a request that got no reply (request-errors.ts says which is which). */
export type RequestFailure =
  | { kind: Exclude<ModelServerFailureKind, 'context_overflow'> }
  /** The conversation no longer fits the server's context; the numbers are null when it did not say them. */
  | { kind: 'context_overflow'; promptTokens: number | null; contextSize: number | null };

/**
 * No reply: the server could not be reached, kept failing after the retry policy gave up, or refused
 * the request. Always the infrastructure's fault: a reply the model got wrong is a ModelReply with
 * `malformed` set, never this.
 */
export class ModelRequestError extends Error {
  readonly failure: RequestFailure;
  readonly retries: RetryRecord[];
  constructor(
    message: string,
    failure: RequestFailure,
    retries: RetryRecord[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ModelRequestError';
    this.failure = failure;
    this.retries = retries;
  }
}

/**
 * No reply within the request timeout while the server still answered its probe: the model was too
 * slow or did not stop writing, so this is the model's failure (a failed trial, `request_timeout`),
 * never the infrastructure's. A server that stops answering makes a ModelRequestError instead.
 */
export class ModelTimeoutError extends Error {
  readonly elapsedMs: number;
  readonly retries: RetryRecord[];
  constructor(message: string, elapsedMs: number, retries: RetryRecord[]) {
    super(message);
    this.name = 'ModelTimeoutError';
    this.elapsedMs = elapsedMs;
    this.retries = retries;
  }
}
