/**
 * Whose fault a failed model request is, decided here and nowhere else: by the openai error classes,
 * and by what the server's error body says (its `type` and numbers, and its message where servers
 * give nothing better). The rule:
 *
 * The model's fault: the server did answer, and what it says is about the model's own output. Not
 * retried (at temperature 0 the same request gives the same output); the reply becomes a malformed
 * reply (counted in malformed_replies, the raw output kept when the server quotes it), the model is
 * told, and the loop goes on:
 *   - HTTP 500 from llama-server's tool-call parser ("Failed to parse input at pos N: <output>", "...
 *     output that does not match the expected ... format"): the model wrote a call it cannot parse;
 *   - a reply larger than the wire cap (reply-cap.ts): the model did not stop.
 *
 * The infrastructure's fault: the trial is an `error` trial, not scored and never a malformed reply:
 *   - unreachable: connection refused or reset, or the reply broke off mid-body. Retried with backoff:
 *     resending a chat request has no side effect, and a server that died refuses the retry at once.
 *     A connection that timed out is not retried: the same request would most likely take as long again.
 *
 * A request that got no reply within the request timeout (RequestTimeoutError) is neither yet: it is
 * never retried, and the client asks the server whether it still answers (openai-compatible.ts). A
 * server that does makes it the model's failure (too slow, or it did not stop: ModelTimeoutError);
 * one that does not, unreachable.
 *   - server_error: any other 5xx (503 while a model loads, overload) and 429; retried, honouring
 *     Retry-After.
 *   - unauthorized (401, 403), model_not_found (404), rejected (any other 4xx, and llama-server's 500
 *     "tools param requires --jinja flag"): the same request gets the same answer, so not retried.
 *   - context_overflow: the conversation no longer fits the context the server was started with
 *     (llama-server: exceed_context_size_error with n_prompt_tokens and n_ctx). Not retried; the
 *     server's setting, not the model, decides it.
 */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import { ReplyTooLargeError } from './reply-cap.js';
import type { RequestFailure } from './types.js';

export interface FailureVerdict {
  failure: RequestFailure;
  retryable: boolean;
  /** One line for RetryRecord.reason and the final error message. */
  reason: string;
  /** What the server asked for via Retry-After, when it did. */
  retryAfterMs: number | null;
}

/** The model produced output the server could not take: a malformed reply, not a failed request. */
export interface ModelFault {
  reason: string;
  /** The model's output as the server quoted it; null when it did not. */
  rawOutput: string | null;
}

/** A body that broke off after the headers arrived: a connection failure in all but name. */
export class BodyReadError extends Error {}

/** No complete reply within the request timeout; `elapsedMs` is the time really waited. */
export class RequestTimeoutError extends Error {
  readonly limitMs: number;
  readonly elapsedMs: number;
  constructor(limitMs: number, elapsedMs: number) {
    // The limit as configured, the wait as measured (to a tenth: 302.4 s).
    super(
      `no reply within the request timeout of ${limitMs / 1000} s (waited ${(elapsedMs / 1000).toFixed(1)} s)`,
    );
    this.name = 'RequestTimeoutError';
    this.limitMs = limitMs;
    this.elapsedMs = elapsedMs;
  }
}

/** The model's fault (see the rule above), or null when the failure is not the model's. */
export function modelFault(err: unknown): ModelFault | null {
  if (err instanceof ReplyTooLargeError) return { reason: err.message, rawOutput: null };
  if (!(err instanceof InternalServerError)) return null;
  const said = serverMessage(err);
  if (said === null) return null;
  const reason = `the server could not parse the model's output (${httpReason(err)})`;
  const quoted = /^Failed to parse input at pos \d+: ?([\s\S]*)$/.exec(said);
  if (quoted !== null) return { reason, rawOutput: quoted[1] ?? '' };
  if (/output that does not match the expected .*format/i.test(said)) return { reason, rawOutput: null };
  return null;
}

/** The infrastructure's fault (see the rule above); null for anything that is not a request failure (a bug). */
export function classifyFailure(err: unknown, now = Date.now()): FailureVerdict | null {
  // The request timeout is the client's own (openai-compatible.ts); this one is the connection's
  // (ETIMEDOUT). First: it is a subclass of APIConnectionError.
  if (err instanceof APIConnectionTimeoutError)
    return verdict('unreachable', false, `connection timed out${errnoSuffix(err)}`);
  if (err instanceof APIUserAbortError) return verdict('unreachable', false, 'aborted');
  if (err instanceof APIConnectionError)
    return verdict('unreachable', true, `connection failed${errnoSuffix(err)}`);
  if (err instanceof BodyReadError)
    return verdict('unreachable', true, `connection dropped while reading the reply${errnoSuffix(err)}`);
  if (!(err instanceof APIError)) return null;
  const overflow = contextOverflow(err);
  if (overflow !== null) {
    const numbers =
      overflow.promptTokens === null || overflow.contextSize === null
        ? ''
        : `: a prompt of ${overflow.promptTokens} tokens for a context of ${overflow.contextSize}`;
    return {
      failure: { kind: 'context_overflow', ...overflow },
      retryable: false,
      reason: `context overflow${numbers} (${httpReason(err)})`,
      retryAfterMs: null,
    };
  }
  // llama-server started without --jinja answers every request with tools this way: no retry will help.
  if (err instanceof InternalServerError && /requires --jinja/i.test(serverMessage(err) ?? ''))
    return verdict('rejected', false, `${httpReason(err)}: restart llama-server with --jinja`);
  if (err instanceof RateLimitError || err instanceof InternalServerError) {
    return {
      failure: { kind: 'server_error' },
      retryable: true,
      reason: httpReason(err),
      retryAfterMs: retryAfterMs(err.headers, now),
    };
  }
  if (err instanceof AuthenticationError || err instanceof PermissionDeniedError)
    return verdict('unauthorized', false, httpReason(err));
  if (err instanceof NotFoundError) return verdict('model_not_found', false, httpReason(err));
  return verdict('rejected', false, httpReason(err));
}

function verdict(
  kind: Exclude<RequestFailure['kind'], 'context_overflow'>,
  retryable: boolean,
  reason: string,
): FailureVerdict {
  return { failure: { kind }, retryable, reason, retryAfterMs: null };
}

/** llama-server's typed error first; other servers only say it in words (vLLM and OpenAI with the numbers). */
function contextOverflow(err: APIError): { promptTokens: number | null; contextSize: number | null } | null {
  const body: Record<string, unknown> =
    typeof err.error === 'object' && err.error !== null ? (err.error as Record<string, unknown>) : {};
  const said = serverMessage(err) ?? '';
  if (
    body.type !== 'exceed_context_size_error' &&
    !/exceeds the available context size|context size has been exceeded|maximum context length|context.length.exceeded/i.test(
      said,
    )
  )
    return null;
  const llama = /\((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/.exec(said);
  const openai = /maximum context length is (\d+) tokens.*?(\d+) tokens/i.exec(said);
  return {
    promptTokens: tokenCount(body.n_prompt_tokens) ?? tokenCount(llama?.[1] ?? openai?.[2]),
    contextSize: tokenCount(body.n_ctx) ?? tokenCount(llama?.[2] ?? openai?.[1]),
  };
}

function tokenCount(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : null;
}

/** The `error.message` of the server's error body, when it sent one. */
function serverMessage(err: APIError): string | null {
  const said =
    err.error !== undefined && typeof err.error === 'object' && err.error !== null && 'message' in err.error
      ? err.error.message
      : null;
  return typeof said === 'string' && said !== '' ? said : null;
}

function httpReason(err: APIError): string {
  const said = serverMessage(err);
  const detail = said === null ? '' : `: ${said.replace(/\s+/g, ' ').slice(0, 160)}`;
  return `HTTP ${err.status ?? '?'}${detail}`;
}

/** The errno code (ECONNREFUSED, ECONNRESET...) from the cause chain, which undici buries two levels down. */
export function errnoCode(err: unknown): string | null {
  for (let cur: unknown = err, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) {
    if ('code' in cur && typeof cur.code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(cur.code))
      return cur.code;
  }
  return null;
}

function errnoSuffix(err: unknown): string {
  const code = errnoCode(err);
  return code === null ? '' : `: ${code}`;
}

/** `retry-after-ms`, then `Retry-After` as seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(headers: Headers | undefined, now: number): number | null {
  const ms = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after')?.trim();
  if (value === undefined || value === '') return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
