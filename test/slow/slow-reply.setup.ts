/**
 * Vitest global setup of the `slow-clock` project: starts the slow request at the very start of the
 * run, so that its five minutes of real time pass while the other projects' files run. Vitest runs a
 * group's files on one shared worker count (one, on a 2-core machine), so a test file that waited
 * itself would add its minutes to the run however it is grouped; the global setups all run first.
 * The test file (slow-reply.test.ts) reads the outcome this writes.
 */
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import { startScriptedServer } from '../helpers/scripted-server.js';

/** Past undici's 300 s headers timeout (which Node's global fetch gives up at), with room for a loaded machine. */
export const SLOW_REPLY_MS = 310_000;
export const SLOW_REQUEST_TIMEOUT_MS = 600_000;

/** What the slow request came to, as the test reads it. */
export type SlowReplyOutcome =
  | { ok: true; text: string; latencyMs: number; retries: number; waitedMs: number }
  | { ok: false; error: string; waitedMs: number };

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file slow-reply.setup.ts writes the slow request's outcome to when it ends. */
    slowReplyOutcome: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const outcomeFile = join(await mkdtemp(join(tmpdir(), 'agent-bench-slow-')), 'outcome.json');
  project.provide('slowReplyOutcome', outcomeFile);
  const server = await startScriptedServer({
    scripts: { 'slow-model': [{ text: 'worth the wait', delayMs: SLOW_REPLY_MS }] },
  });
  const model = createOpenAICompatibleModel({
    baseUrl: server.baseUrl,
    model: 'slow-model',
    sampling: { temperature: 0 },
    requestTimeoutMs: SLOW_REQUEST_TIMEOUT_MS,
    maxRetries: 0,
    env: {},
  });
  const started = Date.now();
  // Not awaited: the run goes on while the reply is awaited.
  void model
    .complete([{ role: 'user', content: 'take your time' }], [])
    .then(
      (reply): SlowReplyOutcome => ({
        ok: true,
        text: reply.text,
        latencyMs: reply.latencyMs,
        retries: reply.retries.length,
        waitedMs: Date.now() - started,
      }),
      (err: unknown): SlowReplyOutcome => ({ ok: false, error: String(err), waitedMs: Date.now() - started }),
    )
    // Renamed into place, so the test never reads half of it.
    .then(async (outcome) => {
      await writeFile(`${outcomeFile}.partial`, JSON.stringify(outcome));
      await rename(`${outcomeFile}.partial`, outcomeFile);
    });
  return () => server.close();
}
