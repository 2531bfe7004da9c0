/**
 * A ChatModel for any OpenAI-compatible server (llama-server, Ollama, LM Studio, vLLM). The openai
 * client does the HTTP with its own retries off; the retry policy here records every retry.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { UsageError } from '../util/errors.js';
import { redactKey, resolveApiKey } from './api-key.js';
import { normalizeBaseUrl, serverAuth } from './base-url.js';
import { CallIdAllocator } from './call-ids.js';
import { unboundedFetch } from './http-fetch.js';
import { checkServer } from './probe.js';
import { replyTokenBound } from './reply-bound.js';
import { cappedFetch, MAX_REPLY_BYTES, ReplyTooLargeError } from './reply-cap.js';
import { buildChatRequest, type Sampling } from './request-body.js';
import {
  BodyReadError,
  classifyFailure,
  type ModelFault,
  modelFault,
  RequestTimeoutError,
} from './request-errors.js';
import { type RetryPolicy, withRetries } from './retry.js';
import {
  type ChatModel,
  type ModelReply,
  ModelRequestError,
  ModelTimeoutError,
  type RetryRecord,
} from './types.js';
import { readCompletion } from './wire.js';

export interface OpenAICompatibleOptions {
  baseUrl: string;
  model: string;
  /** Name recorded in results; defaults to `model`. */
  name?: string;
  /** Variable holding the API key; defaults to AGENT_BENCH_API_KEY, then OPENAI_API_KEY. */
  apiKeyEnv?: string;
  sampling: Sampling;
  /**
   * Limit on one attempt, from sending the request to the last byte of the reply: the only one (the
   * HTTP layer has no timeout of its own, see http-fetch.ts).
   */
  requestTimeoutMs: number;
  /** How long the server gets to answer GET /models after a request timed out (default 10 s). */
  probeTimeoutMs?: number;
  maxRetries: number;
  /** First backoff wait (default 1000 ms); tests pass a few ms. */
  retryBaseMs?: number;
  /** Cap on any wait, Retry-After included (default 30 s). */
  retryMaxWaitMs?: number;
  /** Where the key is read from; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Cap on the bytes of one reply as sent on the wire (default MAX_REPLY_BYTES); tests pass less. */
  maxReplyBytes?: number;
  /**
   * The context one request gets (llama-server: per slot), when the server said it: what the reply
   * bound leaves room for (reply-bound.ts), and see ranOutOfContext.
   */
  contextLength?: number | null;
}

/**
 * Slack for a reply cut off by the context: servers stop a token or two short of it, or count the
 * prompt's special tokens apart. A cut by --max-tokens this close to the context is not plausible.
 */
const CONTEXT_SLACK_TOKENS = 4;

/** setTimeout's largest delay; a longer one fires at once. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

export function createOpenAICompatibleModel(options: OpenAICompatibleOptions): ChatModel {
  validate(options);
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const apiKey = resolveApiKey(options.env ?? process.env, options.apiKeyEnv);
  const timeoutMs = options.requestTimeoutMs;
  const client = openAIClient(options, baseUrl, apiKey);
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries,
    baseMs: options.retryBaseMs ?? 1000,
    maxWaitMs: options.retryMaxWaitMs ?? 30_000,
  };
  const label = redactKey(`model request to ${baseUrl} (${options.model})`, apiKey);
  const ids = new CallIdAllocator();

  return {
    name: options.name ?? options.model,
    async complete(messages, tools, signal) {
      const request = buildChatRequest(options.model, messages, tools, options.sampling);
      const body = { ...request, max_tokens: replyBound(request, options) };
      let latencyMs = 0;
      const { value, retries } = await withRetries(
        async (): Promise<{ body: string } | { fault: ModelFault } | { timeout: RequestTimeoutError }> => {
          const started = performance.now();
          try {
            return { body: await attemptOnce(client, body, timeoutMs, signal) };
          } catch (err) {
            // Never retried: the same request would most likely take as long again.
            if (err instanceof RequestTimeoutError) return { timeout: err };
            // The model's fault is its reply, malformed, not a failed request: never retried.
            const fault = modelFault(err);
            if (fault === null) throw err;
            return { fault: { ...fault, reason: redactKey(fault.reason, apiKey) } };
          } finally {
            latencyMs = performance.now() - started;
          }
        },
        (err) => {
          const verdict = classifyFailure(err);
          return verdict && { ...verdict, reason: redactKey(verdict.reason, apiKey) };
        },
        policy,
        label,
        signal,
      );
      if ('timeout' in value) throw await whoseTimeout(value.timeout, retries, { label, apiKey, options });
      const content = 'body' in value ? readCompletion(value.body, ids) : faultReply(value.fault);
      const overflow = ranOutOfContext(content, options.contextLength ?? null);
      if (overflow !== null) {
        throw new ModelRequestError(
          `${label}: the reply ran out of context: ${overflow.promptTokens} prompt + ${content.usage?.completion_tokens} reply tokens fill the server's context of ${overflow.contextSize}`,
          { kind: 'context_overflow', ...overflow },
          retries,
        );
      }
      return { ...content, latencyMs: Math.round(latencyMs), retries };
    },
  };
}

/** The openai client with its retries, timeout and environment defaults out of the way: this module owns them. */
function openAIClient(options: OpenAICompatibleOptions, baseUrl: string, apiKey: string): OpenAI {
  // `user:password@` and `?api_key=` of the user's URL go with every request (Basic wins over the key).
  const auth = serverAuth(options.baseUrl);
  // Explicit nulls stop the client from picking up OPENAI_ORG_ID & co. from the environment;
  // logging off keeps request details (and the key) out of the output whatever OPENAI_LOG says.
  return new OpenAI({
    apiKey,
    baseURL: baseUrl,
    maxRetries: 0,
    // attemptOnce's deadline is the request's; the client's own must never fire first.
    timeout: MAX_TIMEOUT_MS,
    logLevel: 'off',
    organization: null,
    project: null,
    webhookSecret: null,
    fetch: cappedFetch(options.maxReplyBytes ?? MAX_REPLY_BYTES, unboundedFetch),
    defaultHeaders: auth.headers,
    defaultQuery: auth.query,
  });
}

/**
 * A server that still lists its models was there all along: the model took too long (or never
 * stopped), its failure. One that does not answer is unreachable, as any dead server.
 */
async function whoseTimeout(
  timeout: RequestTimeoutError,
  retries: RetryRecord[],
  at: { label: string; apiKey: string; options: OpenAICompatibleOptions },
): Promise<ModelTimeoutError | ModelRequestError> {
  const { label, apiKey, options } = at;
  const message = `${label} timed out: ${timeout.message}`;
  try {
    await checkServer(options.baseUrl, {
      timeoutMs: options.probeTimeoutMs ?? 10_000,
      ...(options.apiKeyEnv === undefined ? {} : { apiKeyEnv: options.apiKeyEnv }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });
  } catch (err) {
    const why = redactKey(err instanceof Error ? err.message : String(err), apiKey);
    return new ModelRequestError(`${message}, and then ${why}`, { kind: 'unreachable' }, retries);
  }
  return new ModelTimeoutError(
    `${message} (the server still answers: the model was too slow or did not stop)`,
    timeout.elapsedMs,
    retries,
  );
}

/** max_tokens of the request: --max-tokens, or what the server's context leaves (reply-bound.ts). */
function replyBound(
  request: ChatCompletionCreateParamsNonStreaming,
  options: OpenAICompatibleOptions,
): number {
  return replyTokenBound({
    chosen: options.sampling.maxTokens,
    contextLength: options.contextLength ?? null,
    promptChars: JSON.stringify(request.messages).length + JSON.stringify(request.tools ?? []).length,
  });
}

/**
 * One request and its whole body under one deadline, the request timeout: the client's own timeout
 * stops at the headers (and is set out of the way), and the fetch has none (http-fetch.ts).
 */
async function attemptOnce(
  client: OpenAI,
  body: ChatCompletionCreateParamsNonStreaming,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<string> {
  const controller = new AbortController();
  let timedOut = false;
  const started = performance.now();
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await client.chat.completions.create(body, { signal: controller.signal }).asResponse();
    try {
      return await response.text();
    } catch (err) {
      if (err instanceof ReplyTooLargeError) throw err;
      throw new BodyReadError('the reply body could not be read', { cause: err });
    }
  } catch (err) {
    if (timedOut) throw new RequestTimeoutError(timeoutMs, performance.now() - started);
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * A reply the server stopped ('length') because prompt and reply filled its context: llama-server
 * answers 200 with the reply cut, where a prompt too long on its own gets a 400. Like that 400 it is
 * the server's setting, not the model's failure; a cut by --max-tokens stays the model's reply.
 */
function ranOutOfContext(
  reply: Pick<ModelReply, 'finishReason' | 'usage'>,
  contextLength: number | null,
): { promptTokens: number; contextSize: number } | null {
  if (reply.finishReason !== 'length' || reply.usage === null || contextLength === null) return null;
  const used = reply.usage.prompt_tokens + reply.usage.completion_tokens;
  if (used < contextLength - CONTEXT_SLACK_TOKENS) return null;
  return { promptTokens: reply.usage.prompt_tokens, contextSize: contextLength };
}

/** What the model said, as far as the server quoted it: a malformed reply with no calls. */
function faultReply(fault: ModelFault): Omit<ModelReply, 'latencyMs' | 'retries'> {
  return {
    text: fault.rawOutput ?? '',
    toolCalls: [],
    usage: null,
    finishReason: null,
    malformed: fault.reason,
  };
}

function validate(o: OpenAICompatibleOptions): void {
  if (
    !Number.isFinite(o.requestTimeoutMs) ||
    o.requestTimeoutMs <= 0 ||
    o.requestTimeoutMs > MAX_TIMEOUT_MS
  ) {
    throw new UsageError(
      `request timeout must be a positive number of milliseconds up to ${MAX_TIMEOUT_MS} (24 days), got ${o.requestTimeoutMs}`,
    );
  }
  if (!Number.isInteger(o.maxRetries) || o.maxRetries < 0) {
    throw new UsageError(`retries must be a whole number >= 0, got ${o.maxRetries}`);
  }
  for (const [what, ms] of [
    ['retry base', o.retryBaseMs],
    ['retry wait cap', o.retryMaxWaitMs],
  ] as const) {
    if (ms !== undefined && (!Number.isFinite(ms) || ms < 0))
      throw new UsageError(`${what} must be >= 0 ms, got ${ms}`);
  }
  if (o.maxReplyBytes !== undefined && !(Number.isInteger(o.maxReplyBytes) && o.maxReplyBytes > 0))
    throw new UsageError(`the reply cap must be a whole number of bytes > 0, got ${o.maxReplyBytes}`);
  if (o.model === '') throw new UsageError('model name must not be empty');
}
