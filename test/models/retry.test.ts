import { describe, expect, it } from 'vitest';
import { redactKey, resolveApiKey } from '../../src/models/api-key.js';
import { retryAfterMs } from '../../src/models/request-errors.js';
import { backoffMs, sleep, withRetries } from '../../src/models/retry.js';
import { ModelRequestError } from '../../src/models/types.js';

describe('backoffMs', () => {
  const policy = { maxRetries: 5, baseMs: 100, maxWaitMs: 1000 };
  it('doubles each retry, with jitter between half and the full step', () => {
    expect(backoffMs(1, { ...policy, random: () => 0 })).toBe(50);
    expect(backoffMs(1, { ...policy, random: () => 1 })).toBe(100);
    expect(backoffMs(3, { ...policy, random: () => 1 })).toBe(400);
  });
  it('is capped', () => {
    expect(backoffMs(10, { ...policy, random: () => 1 })).toBe(1000);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads seconds, an HTTP date and retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150' }), now)).toBe(150);
  });
  it('is null when absent or unreadable', () => {
    expect(retryAfterMs(new Headers(), now)).toBeNull();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });
});

describe('sleep', () => {
  it('rejects with the abort reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 10);
    await expect(sleep(10_000, controller.signal)).rejects.toThrow('cancelled');
  });
});

describe('API key', () => {
  it('reads the named variable, then OPENAI_API_KEY for the default name only, else "none"', () => {
    expect(resolveApiKey({ AGENT_BENCH_API_KEY: 'a', OPENAI_API_KEY: 'b' })).toBe('a');
    expect(resolveApiKey({ OPENAI_API_KEY: 'b' })).toBe('b');
    expect(resolveApiKey({ OPENAI_API_KEY: 'b' }, 'MY_KEY')).toBe('none');
    expect(resolveApiKey({ MY_KEY: 'c' }, 'MY_KEY')).toBe('c');
    expect(resolveApiKey({})).toBe('none');
  });
  it('redacts the key from text', () => {
    expect(redactKey('bad key sk-123456 given', 'sk-123456')).toBe('bad key [redacted] given');
    expect(redactKey('none of it', 'none')).toBe('none of it');
  });
});

describe('withRetries', () => {
  const policy = { maxRetries: 2, baseMs: 1, maxWaitMs: 5 };
  const flaky = {
    failure: { kind: 'unreachable' as const },
    retryable: true,
    reason: 'flaky',
    retryAfterMs: null,
  };

  it('records each retry and returns the value', async () => {
    let n = 0;
    const out = await withRetries(
      async () => {
        if (++n < 3) throw new Error('x');
        return 'ok';
      },
      () => flaky,
      policy,
      'req',
    );
    expect(out.value).toBe('ok');
    expect(out.retries.map((r) => [r.attempt, r.reason])).toEqual([
      [1, 'flaky'],
      [2, 'flaky'],
    ]);
  });

  it('lets errors that are not request failures (bugs) through unwrapped', async () => {
    const bug = new TypeError('bug');
    const err = await withRetries(
      () => Promise.reject(bug),
      () => null,
      policy,
      'req',
    ).catch((e: unknown) => e);
    expect(err).toBe(bug);
  });

  it('wraps the last failure with the retries made', async () => {
    const err = await withRetries(
      () => Promise.reject(new Error('x')),
      () => flaky,
      policy,
      'req',
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelRequestError);
    expect((err as ModelRequestError).message).toBe('req failed after 2 retries: flaky');
    expect((err as ModelRequestError).retries).toHaveLength(2);
  });
});
