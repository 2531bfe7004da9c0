/** Which request failures are worth retrying, decided by the openai error classes, never by message text. */
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
} from 'openai';

export interface FailureVerdict {
  retryable: boolean;
  /** One line for RetryRecord.reason and the final error message. */
  reason: string;
  /** What the server asked for via Retry-After, when it did. */
  retryAfterMs: number | null;
}

/** A body that broke off after the headers arrived: a connection failure in all but name. */
export class BodyReadError extends Error {}

/** null for anything that is not a request failure (a bug here): the caller lets it propagate. */
export function classifyFailure(err: unknown, timeoutMs: number, now = Date.now()): FailureVerdict | null {
  // Timeout first: it is a subclass of APIConnectionError.
  if (err instanceof APIConnectionTimeoutError) return retry(`timed out after ${timeoutMs} ms`);
  if (err instanceof APIUserAbortError) return { retryable: false, reason: 'aborted', retryAfterMs: null };
  if (err instanceof APIConnectionError) return retry(`connection failed${errnoSuffix(err)}`);
  if (err instanceof BodyReadError)
    return retry(`connection dropped while reading the reply${errnoSuffix(err)}`);
  if (err instanceof RateLimitError || err instanceof InternalServerError) {
    return { retryable: true, reason: httpReason(err), retryAfterMs: retryAfterMs(err.headers, now) };
  }
  if (err instanceof APIError) return { retryable: false, reason: httpReason(err), retryAfterMs: null };
  return null;
}

function retry(reason: string): FailureVerdict {
  return { retryable: true, reason, retryAfterMs: null };
}

function httpReason(err: APIError): string {
  const said =
    err.error !== undefined && typeof err.error === 'object' && 'message' in err.error
      ? err.error.message
      : null;
  const detail =
    typeof said === 'string' && said !== '' ? `: ${said.replace(/\s+/g, ' ').slice(0, 160)}` : '';
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
