/**
 * `agent-bench ladder --ctx --cache-type` on real llama-servers: two quantizations of the tiny
 * Qwen2.5-style model × two context sizes make four rungs, each on its own server started with its
 * `-c {ctx}`, and every rung records its server's peak memory and prompt/generation tokens per second
 * (the model's verdict does not matter: it is a tiny random model). Skipped, saying why, when the
 * llama-server build or the tiny models are absent.
 */
import { mkdir, mkdtemp, readdir, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/ladder/server-command.js';
import { readLadderSummary } from '../../src/ladder/summary-schema.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { agentBench } from '../helpers/llama-cli.js';
import { findLlamaKit, type LlamaKit, skipWithoutLlama } from '../helpers/llama-kit.js';
import { BASE_FLAGS, llamaServersServing } from '../helpers/llama-process.js';

const kit = await findLlamaKit();
const skip = skipWithoutLlama(kit, 'ladder over configurations');

describe.skipIf(skip)('a ladder over quantization × context on real llama-servers', () => {
  const k = kit as LlamaKit;

  beforeAll(async () => {
    await ensureImage();
  });

  it('runs four rungs, each with its context, and measures memory and speed on each', async () => {
    const root = await mkdtemp(join(tmpdir(), 'agent-bench-llama-configs-'));
    const models = join(root, 'models');
    const resultsDir = join(root, 'results');
    await mkdir(models);
    for (const quant of ['Q4_K_M', 'Q8_0'] as const)
      await symlink(k.models[quant], join(models, `tiny-${quant}.gguf`));
    const serverCmd = [shellQuote(k.serverBin), '-m {model} --port {port} --host 127.0.0.1 -c {ctx} -np 1']
      .concat(BASE_FLAGS)
      .join(' ');
    const run = await agentBench([
      'ladder',
      '--gguf-dir',
      models,
      '--server-cmd',
      serverCmd,
      '--ctx',
      '2048,4096',
      '--exhaustive',
      '--tasks',
      'debug_python_v1',
      '--max-turns',
      '1',
      '--retries',
      '0',
      '--results-dir',
      resultsDir,
    ]);
    expect(run.code, run.stderr).toBe(0);

    const [name] = (await readdir(resultsDir)).filter((n) => /^ladder-.*\.json$/.test(n));
    const read = await readLadderSummary(join(resultsDir, name ?? ''));
    if (!read.ok) throw new Error(read.reason);
    const rungs = read.summary.rungs;
    expect(rungs.map((r) => [r.quantization, r.ctx])).toHaveLength(4);
    expect(new Set(rungs.map((r) => `${r.quantization} ${r.ctx}`))).toEqual(
      new Set(['Q4_K_M 2048', 'Q4_K_M 4096', 'Q8_0 2048', 'Q8_0 4096']),
    );
    // Ordered by file + KV estimate, which grows with the context.
    const estimates = rungs.map((r) => r.memory_estimate_bytes ?? 0);
    expect([...estimates].sort((a, b) => a - b)).toEqual(estimates);
    for (const rung of rungs) {
      expect(rung.status).not.toBe('not_run');
      expect(rung.server_peak_rss_bytes).toBeGreaterThan(0);
      expect(rung.speed?.prompt_tps).toBeGreaterThan(0);
      expect(rung.speed?.generation_tps).toBeGreaterThan(0);
      expect(rung.kv_cache_bytes).toBeGreaterThan(0);
      // The server was started with the rung's context.
      const log = await readFile(rung.server_log ?? '', 'utf8');
      expect(log).toMatch(new RegExp(`n_ctx_slot = ${rung.ctx},`));
    }
    expect(run.stderr).toMatch(/ladder chart: .*ladder-.*\.svg/);
    expect(llamaServersServing(models)).toEqual([]);
  }, 600_000);
});
