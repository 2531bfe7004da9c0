/**
 * `ladder --gguf-dir --server-cmd --ctx --cache-type`: one rung per file × configuration, ordered by
 * file + KV estimate, each server started with its own `{ctx}`/`{cache_type}`, and the verdict, the
 * table and the summary naming the configuration. Servers and bench are faked; the real llama-server
 * ladder over configurations is in test/integration/llama-server-ladder-configs.test.ts.
 */
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LadderOptions, runLadder } from '../../src/ladder/run-ladder.js';
import { rungConfigs } from '../../src/ladder/rung-config.js';
import { serverCommandLine } from '../../src/ladder/server-command.js';
import type { ModelServer, ServerStartOptions } from '../../src/ladder/server-process.js';
import { readLadderSummary } from '../../src/ladder/summary-schema.js';
import type { ResultFile } from '../../src/results/result-file.js';
import type { BenchOptions } from '../../src/run/run-bench.js';
import type { Task } from '../../src/tasks/types.js';
import { UsageError } from '../../src/util/errors.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';
import { runSettings } from '../helpers/run-settings.js';

const SERVER_CMD = 'llama-server -m {model} --port {port} -c {ctx} -ctk {cache_type} -ctv {cache_type}';
let root: string;
let models: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'config-ladder-'));
  models = join(root, 'models');
  await mkdir(models);
  // 2 layers × 1 KV head × (64 + 64): 256 elements per token; f16 at ctx 4096 is 2 MiB of cache.
  for (const [name, extra] of [
    ['beta-8b-Q4_K_M', 1_000_000],
    ['beta-8b-Q6_K', 1_500_000],
  ] as const) {
    const path = join(models, `${name}.gguf`);
    await writeGguf(path, {
      kv: [
        ['general.architecture', gguf.str('llama')],
        ['llama.block_count', gguf.u32(2)],
        ['llama.embedding_length', gguf.u32(256)],
        ['llama.attention.head_count', gguf.u32(4)],
        ['llama.attention.head_count_kv', gguf.u32(1)],
      ],
    });
    await appendFile(path, Buffer.alloc(extra));
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function options(name: string, extra: Partial<LadderOptions> = {}): LadderOptions {
  return {
    tasks: [{ id: 'a' }] as Task[],
    suite: 'a',
    source: { kind: 'gguf-dir', dir: models },
    serverCmd: SERVER_CMD,
    configs: rungConfigs([4096, 8192], ['f16', 'q8_0']),
    settings: runSettings(),
    resultsDir: join(root, name),
    resume: false,
    exhaustive: false,
    request: {
      apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
      sampling: { temperature: 0 },
      requestTimeoutMs: 5000,
      retries: 0,
    },
    stdout: { write: () => {} },
    stderr: { write: () => true, isTTY: false },
    handleSignals: false,
    ...extra,
  };
}

describe('a ladder over file × context × cache type', () => {
  it('starts each rung with its own configuration, smallest estimate first, and names it in the verdict', async () => {
    const started: string[] = [];
    // A fake server per rung: its command line is what the rung would run; it "serves" the file.
    const startServer = async (o: ServerStartOptions): Promise<ModelServer> => {
      started.push(serverCommandLine(o.command, o.modelPath, 1, o.config));
      return {
        baseUrl: `http://127.0.0.1:1/v1#${started.length}`,
        modelName: o.modelPath,
        pgid: 2 ** 22 + 1,
        ended: () => null,
        stop: async () => 'terminated',
      };
    };
    // Passes from the Q6_K file at ctx 8192 with a q8_0 cache: the only rung that fits the "skill".
    const runBench = async (o: BenchOptions): Promise<ResultFile[]> => {
      const line = started.at(-1) ?? '';
      const passes = line.includes('Q6_K') && line.includes('-c 8192') && line.includes('q8_0');
      return o.tasks.map((t) =>
        result({ task: t.id, model: o.model.model ?? '', trials: [passes ? PASS : MISS] }),
      );
    };
    let out = '';
    const outcome = await runLadder(options('climb', { stdout: { write: (s: string) => (out += s) } }), {
      runBench,
      startServer,
      preflight: async () => {},
    });

    // File + KV: 2.1, 2.6, 3.1, 3.2, 3.6, 3.7 MB… the larger file with a small cache comes before the
    // smaller file with a large one.
    expect(outcome.rungs.map((r) => [r.model.label, r.status])).toEqual([
      ['beta-8b-Q4_K_M@ctx4096-kv-q8_0', 'failed'],
      ['beta-8b-Q6_K@ctx4096-kv-q8_0', 'failed'],
      ['beta-8b-Q4_K_M@ctx4096-kv-f16', 'failed'],
      ['beta-8b-Q4_K_M@ctx8192-kv-q8_0', 'failed'],
      ['beta-8b-Q6_K@ctx4096-kv-f16', 'failed'],
      ['beta-8b-Q6_K@ctx8192-kv-q8_0', 'passed'],
      ['beta-8b-Q4_K_M@ctx8192-kv-f16', 'not_run'],
      ['beta-8b-Q6_K@ctx8192-kv-f16', 'not_run'],
    ]);
    expect(started[0]).toMatch(/beta-8b-Q4_K_M\.gguf' --port 1 -c 4096 -ctk q8_0 -ctv q8_0$/);
    expect(started).toHaveLength(6);
    expect(outcome.verdict).toBe('a needs at least Q6_K of beta-8b at ctx 8192, KV q8_0: 8B total, 1.4 MiB');
    expect(out).toMatch(/memory/);
    expect(out).toMatch(/beta-8b-Q4_K_M@ctx4096-kv-q8_0 .* ~2\.0 MiB est /);

    const read = await readLadderSummary(outcome.summaryPath);
    if (!read.ok) throw new Error(read.reason);
    const [first] = read.summary.rungs;
    const last = read.summary.rungs.at(-1);
    expect(first).toMatchObject({
      ctx: 4096,
      cache_type: 'q8_0',
      kv_cache_bytes: 4096 * 256 * (34 / 32),
      memory_estimate_bytes: (first?.size_bytes ?? 0) + 4096 * 256 * (34 / 32),
    });
    expect(last).toMatchObject({ ctx: 8192, cache_type: 'f16', kv_cache_bytes: 8192 * 256 * 2 });
    // Each configuration of a file has a server log of its own.
    expect(new Set(read.summary.rungs.slice(0, 6).map((r) => r.server_log)).size).toBe(6);
  });

  it('says in one line what does not go with configurations', async () => {
    const deps = { preflight: async () => {} };
    await expect(runLadder(options('no-cmd', { serverCmd: undefined as never }), deps)).rejects.toThrow(
      '--ctx and --cache-type need --server-cmd: they are passed to each server it starts',
    );
    await expect(
      runLadder(
        options('no-ctx', { serverCmd: 'llama-server -m {model} --port {port} -ctk {cache_type}' }),
        deps,
      ),
    ).rejects.toThrow(/^--ctx needs \{ctx\} in --server-cmd/);
    await expect(runLadder(options('resume', { resume: true }), deps)).rejects.toThrow(UsageError);
  });
});
