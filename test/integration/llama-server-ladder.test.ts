/**
 * `agent-bench ladder --gguf-dir --server-cmd` over the four real quantizations of the tiny Qwen2.5-style
 * model, each served by its own real llama-server: climbed smallest file first, every rung measured
 * (the model fails, as a model), every server's log kept, and no server left running afterwards.
 * Skipped, saying why, when the llama-server build or the tiny models are absent.
 */
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shellQuote } from '../../src/ladder/server-command.js';
import type { LadderSummary } from '../../src/ladder/summary-file.js';
import { readResultFiles } from '../../src/results/store.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { agentBench } from '../helpers/llama-cli.js';
import { findLlamaKit, type LlamaKit, skipWithoutLlama } from '../helpers/llama-kit.js';
import { BASE_FLAGS, llamaServersServing } from '../helpers/llama-process.js';

const kit = await findLlamaKit();
const skip = skipWithoutLlama(kit, 'ladder');

describe.skipIf(skip)('the ladder on real llama-servers', () => {
  const k = kit as LlamaKit;

  beforeAll(async () => {
    await ensureImage();
  });

  it('climbs Q2_K, Q4_K_M, Q6_K, Q8_0 by file size, one server each, logs kept, none left running', async () => {
    const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-llama-ladder-'));
    const serverCmd = [shellQuote(k.serverBin), '-m {model} --port {port} --host 127.0.0.1 -c 4096 -np 1']
      .concat(BASE_FLAGS)
      .join(' ');
    const run = await agentBench([
      'ladder',
      '--gguf-dir',
      k.modelsDir,
      '--server-cmd',
      serverCmd,
      '--tasks',
      'debug_python_v1',
      '--max-turns',
      '1',
      '--retries',
      '0',
      '--results-dir',
      resultsDir,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('no model in the ladder passes debug_python_v1 at pass^k (k=1)');

    const [summaryName] = (await readdir(resultsDir)).filter((n) => /^ladder-.*\.json$/.test(n));
    const summary = JSON.parse(await readFile(join(resultsDir, summaryName ?? ''), 'utf8')) as LadderSummary;
    expect(summary.rungs.map((r) => [r.quantization, r.status])).toEqual([
      ['Q2_K', 'failed'],
      ['Q4_K_M', 'failed'],
      ['Q6_K', 'failed'],
      ['Q8_0', 'failed'],
    ]);
    // Ordered by the files' real sizes, which the rungs report.
    const sizes = await Promise.all(summary.rungs.map(async (r) => (await stat(r.model_id)).size));
    expect(summary.rungs.map((r) => r.size_bytes)).toEqual(sizes);
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
    expect(new Set(sizes).size).toBe(4);

    // One server per rung, on its own port, each log its own and kept.
    const logs = summary.rungs.map((r) => r.server_log ?? '');
    expect(new Set(logs).size).toBe(4);
    for (const [i, rung] of summary.rungs.entries()) {
      const log = await readFile(logs[i] ?? '', 'utf8');
      expect(log).toContain(`loading model '${rung.model_id}'`);
      expect(log).toContain('model loaded');
      expect(log).toMatch(/stop processing: n_tokens = \d+/);
      for (const other of summary.rungs)
        if (other !== rung) expect(log).not.toContain(basename(other.model_id));
    }
    const files = (await readResultFiles(resultsDir)).results.map((f) => f.result);
    expect(files).toHaveLength(4);
    expect(new Set(files.map((f) => f.environment.base_url)).size).toBe(4);
    for (const file of files) {
      expect(file.environment.server?.version).toBe(`b1-${k.commit.slice(0, 7)}`);
      expect(file.trials.map((t) => [t.status, t.native_tool_calls])).toEqual([['failed', 1]]);
    }

    // Every server was stopped, and reaped: not even a zombie serves a file of the folder.
    expect(llamaServersServing(k.modelsDir)).toEqual([]);
  }, 600_000);
});
