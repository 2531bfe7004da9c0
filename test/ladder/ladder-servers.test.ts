/**
 * A GGUF ladder with `--server-cmd`: one fake llama-server per file, started, used, and stopped per
 * rung; servers that die or never get healthy fail their own rung only. The bench is faked (it asks
 * the spawned server for a reply); the real bench over a spawned server is in test/integration.
 */
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLadder } from '../../src/ladder/run-ladder.js';
import type { LadderSummary } from '../../src/ladder/summary-file.js';
import type { ResultFile } from '../../src/results/result-file.js';
import type { BenchOptions } from '../../src/run/run-bench.js';
import type { Task } from '../../src/tasks/types.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';
import { runSettings } from '../helpers/run-settings.js';
import { FAKE_SERVER, gone, loggedPid } from './fake-server.js';

let root: string;
let models: string;
let resultsDir: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ladder-servers-'));
  models = join(root, 'models');
  resultsDir = join(root, 'results');
  await mkdir(models);
  // File sizes set the order: broken < slow < fails < passes < big.
  const files = ['a-broken-Q2_K', 'b-slow-Q3_K_M', "c-fail's-Q4_K_M", 'd-passes-Q5_K_M', 'e-big-Q8_0'];
  for (const [i, name] of files.entries()) {
    const path = join(models, `${name}.gguf`);
    await writeGguf(path, { kv: [['general.architecture', gguf.str('llama')]] });
    await appendFile(path, Buffer.alloc(1000 * (i + 1)));
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

// How each file's server behaves is decided by the shell around the fake server, from the file name.
const SERVER_CMD = [
  'case {model} in',
  `  *broken*) echo "llama_model_load: error loading model: tensor data is not within file bounds" >&2; exit 1;;`,
  `  *slow*) exec ${FAKE_SERVER} -m {model} --port {port} --never-healthy;;`,
  `  *) exec ${FAKE_SERVER} -m {model} --port {port} --load-ms 200;;`,
  'esac',
].join('\n');

describe.sequential('a GGUF ladder with --server-cmd', () => {
  it('starts one server per rung, runs against it, stops it, and goes on past servers that fail', async () => {
    const benched: { model: string; baseUrl: string; answer: string }[] = [];
    const runBench = async (o: BenchOptions): Promise<ResultFile[]> => {
      const { model = '', baseUrl = '' } = o.model;
      // The server must be up and serving this model while the run goes on.
      const reply = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
      });
      const body = (await reply.json()) as { model: string };
      benched.push({ model, baseUrl, answer: body.model });
      return o.tasks.map((t) =>
        result({ task: t.id, model, trials: [model.includes('passes') ? PASS : MISS] }),
      );
    };
    let err = '';
    const outcome = await runLadder(
      {
        tasks: [{ id: 'a' }] as Task[],
        suite: 'a',
        source: { kind: 'gguf-dir', dir: models },
        serverCmd: SERVER_CMD,
        serverStartTimeoutMs: 1500,
        serverGraceMs: 1000,
        settings: runSettings(),
        resultsDir,
        resume: false,
        exhaustive: false,
        request: {
          apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
          sampling: { temperature: 0 },
          requestTimeoutMs: 5000,
          retries: 0,
        },
        stdout: { write: () => {} },
        stderr: { write: (s: string) => (err += s), isTTY: false },
        handleSignals: false,
      },
      { runBench, preflight: async () => {} },
    );

    expect(outcome.rungs.map((r) => [r.model.label, r.status])).toEqual([
      ['a-broken-Q2_K', 'error'],
      ['b-slow-Q3_K_M', 'error'],
      ["c-fail's-Q4_K_M", 'failed'],
      ['d-passes-Q5_K_M', 'passed'],
      ['e-big-Q8_0', 'not_run'],
    ]);
    const [broken, slow] = outcome.rungs;
    expect(broken?.error).toMatch(/exited with code 1 before it was healthy/);
    expect(broken?.error).toContain(
      '| llama_model_load: error loading model: tensor data is not within file bounds',
    );
    expect(slow?.error).toMatch(/was not healthy within 1.5 s: stopped/);
    expect(err).toContain('error loading model'); // the log tail is shown as it happens

    // Each run talked to its own server on a loopback port, under the name the server lists.
    expect(benched.map((b) => b.model)).toEqual(["c-fail's-Q4_K_M.gguf", 'd-passes-Q5_K_M.gguf']);
    expect(
      benched.every((b) => b.answer === b.model && /^http:\/\/127\.0\.0\.1:\d+\/v1$/.test(b.baseUrl)),
    ).toBe(true);

    // Every server's log is in the results folder, and no server outlived its rung.
    const logs = (await readdir(join(resultsDir, 'servers'))).sort();
    expect(logs).toHaveLength(4);
    expect(logs.every((name) => name.endsWith(`-${outcome.runId}.log`))).toBe(true);
    for (const rung of outcome.rungs.slice(1, 4)) {
      const log = await readFile(rung.serverLog ?? '', 'utf8');
      expect(gone(loggedPid(log))).toBe(true);
    }
    expect(await readFile(outcome.rungs[3]?.serverLog ?? '', 'utf8')).toContain('SIGTERM, shutting down');

    // A rung that ran on its server records the server's peak memory (a node process: megabytes).
    const served = outcome.rungs[3]?.serverPeakRssBytes ?? 0;
    expect(served).toBeGreaterThan(1 << 20);
    expect(err).toMatch(/d-passes-Q5_K_M: passes every task \(server peak \d/);
    const summary = JSON.parse(await readFile(outcome.summaryPath, 'utf8')) as LadderSummary;
    expect(summary.rungs[3]?.server_peak_rss_bytes).toBe(served);
    expect(summary.rungs[4]?.server_peak_rss_bytes).toBeUndefined();
  });
});
