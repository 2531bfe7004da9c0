/**
 * The retry policy for model requests. Every retry is returned as a record, so a flaky endpoint
 * shows up in results instead of hiding inside a slow turn.
 */
import type { FailureVerdict } from './request-errors.js';
import { ModelRequestError, type RetryRecord } from './types.js';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 means one attempt only. */
  maxRetries: number;
  /** First backoff; doubles on each retry. */
  baseMs: number;
  /** Cap on any single wait, Retry-After included. */
  maxWaitMs: number;
  /** Injectable for deterministic tests. */
  random?: () => number;
}

/** Exponential with "equal jitter": at least half the step, so retries never bunch up at zero. */
export function backoffMs(retry: number, policy: RetryPolicy): number {
  const step = Math.min(policy.maxWaitMs, policy.baseMs * 2 ** (retry - 1));
  return Math.round(step / 2 + ((policy.random ?? Math.random)() * step) / 2);
}

export async function withRetries<T>(
  attempt: () => Promise<T>,
  classify: (err: unknown) => FailureVerdict | null,
  policy: RetryPolicy,
  label: string,
  signal?: AbortSignal,
): Promise<{ value: T; retries: RetryRecord[] }> {
  const retries: RetryRecord[] = [];
  for (let n = 1; ; n++) {
    try {
      return { value: await attempt(), retries };
    } catch (err) {
      // A cancelled request is the caller's decision, not a model failure.
      signal?.throwIfAborted();
      const verdict = classify(err);
      if (verdict === null) throw err;
      if (!verdict.retryable || retries.length >= policy.maxRetries) {
        const after =
          retries.length === 0
            ? ''
            : ` after ${retries.length} ${retries.length === 1 ? 'retry' : 'retries'}`;
        // No cause: the client's error may quote the API key back (the reason here is redacted).
        throw new ModelRequestError(`${label} failed${after}: ${verdict.reason}`, verdict.failure, retries);
      }
      const waitMs =
        verdict.retryAfterMs === null
          ? backoffMs(retries.length + 1, policy)
          : Math.min(Math.round(verdict.retryAfterMs), policy.maxWaitMs);
      retries.push({ attempt: n, reason: verdict.reason, waitMs });
      await sleep(waitMs, signal);
    }
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
