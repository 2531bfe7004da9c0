/**
 * A reply slower than five minutes is waited for when --request-timeout allows it: the HTTP layer has
 * no timeout of its own (Node's global fetch gave up at 300 s whatever the option said). The request
 * started with the run (slow-reply.setup.ts); this reads how it ended, waiting for the rest of it.
 */
import { existsSync, readFileSync, watch } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { SLOW_REPLY_MS, SLOW_REQUEST_TIMEOUT_MS, type SlowReplyOutcome } from './slow-reply.setup.js';

/** The outcome, once the request has ended (it may be long over; it cannot outlast its timeout). */
async function outcome(): Promise<SlowReplyOutcome> {
  const file = inject('slowReplyOutcome');
  // The setup renames the outcome into place: once its name is there, it is whole.
  await new Promise<void>((resolve, reject) => {
    const watcher = watch(dirname(file), () => {
      if (existsSync(file)) done();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`the slow request never ended (${file})`));
    }, SLOW_REQUEST_TIMEOUT_MS + 60_000);
    const done = (): void => {
      clearTimeout(timer);
      watcher.close();
      resolve();
    };
    // Looked at once the watcher runs, so a rename just before it is not missed.
    if (existsSync(file)) done();
  });
  return JSON.parse(readFileSync(file, 'utf8')) as SlowReplyOutcome;
}

describe('a slow model', () => {
  it('gets its reply used after 310 s under a request timeout of 600 s', async () => {
    const ended = await outcome();
    expect(ended).toMatchObject({ ok: true, text: 'worth the wait', retries: 0 });
    expect(ended.ok && ended.latencyMs).toBeGreaterThanOrEqual(SLOW_REPLY_MS);
  });
});
