/**
 * A model that never stops writing, on a real llama-server: the tiny runaway model (a bigram loop
 * with no end token, scripts/make-qwen-gguf.mjs) is cut by the request's reply bound (max_tokens,
 * from the server's context), and the trial is the model's failure, measured: not a timeout, not an
 * infrastructure error, and the run exits 0. Skipped, saying why, when the build is absent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeRunawayModel } from '../../scripts/make-qwen-gguf.mjs';
import { DEFAULT_REPLY_TOKENS, MIN_REPLY_TOKENS } from '../../src/models/reply-bound.js';
import { readResultFiles } from '../../src/results/store.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { runAgainst } from '../helpers/llama-cli.js';
import { findLlamaKit, type LlamaKit, skipWithoutLlama } from '../helpers/llama-kit.js';
import { BASE_FLAGS, startLlamaServer } from '../helpers/llama-process.js';

/**
 * Room for debug_python_v1's first prompt (about 650 real tokens, estimated at 800) and a reply
 * bound a little above the floor: on a loaded 2-core machine the tiny model writes 3 tokens a second.
 */
const CONTEXT = 1280; // A multiple of 256: llama-server rounds the context up to one.

const kit = await findLlamaKit();
const runaway = ((): string | { missing: string } => {
  if ('missing' in kit) return kit;
  try {
    return makeRunawayModel(kit.llamaDir);
  } catch (err) {
    return { missing: `cannot make the runaway model: ${err instanceof Error ? err.message : String(err)}` };
  }
})();
const skip = skipWithoutLlama(typeof runaway === 'string' ? kit : runaway, 'runaway generation');

describe.skipIf(skip)('a real llama-server with a model that does not stop', () => {
  beforeAll(async () => {
    await ensureImage();
  });

  it('is cut by the reply bound and scored as a failed trial; the run exits 0', async () => {
    const server = await startLlamaServer(kit as LlamaKit, runaway as string, [
      ...BASE_FLAGS,
      '--jinja',
      '-c',
      String(CONTEXT),
      '-np',
      '1',
    ]);
    try {
      const run = await runAgainst(server.baseUrl, 'debug_python_v1');
      expect(run.code, run.stderr).toBe(0);
      const [file] = (await readResultFiles(run.resultsDir)).results.map((f) => f.result);
      const trial = file?.trials[0];
      expect(trial?.status).toBe('failed');
      expect(trial?.error).toBeUndefined();
      expect(trial?.length_cut_replies).toBe(1);
      const turn = trial?.turn_logs[0];
      expect(turn?.finish_reason).toBe('length');
      expect(turn?.assistant_text).toContain('the end is not near, the end is not near');
      // What the context left after the prompt: less than the default cap, and it all fit.
      const used = turn?.usage;
      expect(used?.completion_tokens).toBeGreaterThan(MIN_REPLY_TOKENS);
      expect(used?.completion_tokens).toBeLessThan(DEFAULT_REPLY_TOKENS);
      expect((used?.prompt_tokens ?? 0) + (used?.completion_tokens ?? 0)).toBeLessThan(CONTEXT);
    } finally {
      await server.stop();
    }
  }, 900_000);
});
