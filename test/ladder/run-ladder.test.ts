/** The ladder's climb with a fake bench: order, stop rule, failures that do not stop it, interruption, files. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Candidates } from '../../src/ladder/candidates.js';
import { type LadderDeps, type LadderOptions, runLadder } from '../../src/ladder/run-ladder.js';
import type { LadderSummary } from '../../src/ladder/summary-file.js';
import type { ResultFile } from '../../src/results/result-file.js';
import type { BenchOptions } from '../../src/run/run-bench.js';
import { RunStoppedError } from '../../src/run/run-stopped.js';
import type { Task } from '../../src/tasks/types.js';
import { InfraError, InterruptedError, UsageError } from '../../src/util/errors.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';
import { runSettings } from '../helpers/run-settings.js';
import { served } from './models.js';

const TASKS = [{ id: 'a' }, { id: 'b' }] as Task[];

let resultsDir: string;
beforeAll(async () => {
  resultsDir = await mkdtemp(join(tmpdir(), 'ladder-run-'));
});
afterAll(async () => {
  await rm(resultsDir, { recursive: true, force: true });
});

/** A bench whose verdict per model is chosen by the test: pass, fail, or throw. */
function fakeBench(outcome: (model: string) => 'pass' | 'fail' | Error) {
  const calls: BenchOptions[] = [];
  const runBench = async (o: BenchOptions): Promise<ResultFile[]> => {
    calls.push(o);
    const model = o.model.model ?? '?';
    const verdict = outcome(model);
    if (verdict instanceof Error) throw verdict;
    return o.tasks.map((t, i) =>
      result({ task: t.id, model, trials: [verdict === 'fail' && i === 1 ? MISS : PASS] }),
    );
  };
  return { calls, runBench, models: () => calls.map((c) => c.model.model) };
}

function ladder(names: string[], extra: Partial<LadderOptions> = {}) {
  let out = '';
  let err = '';
  const options: LadderOptions = {
    tasks: TASKS,
    suite: 'the suite (a, b)',
    source: { kind: 'server', baseUrl: 'http://fake/v1', models: names },
    settings: runSettings(),
    resultsDir,
    resume: false,
    exhaustive: false,
    request: {
      apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
      sampling: { temperature: 0 },
      requestTimeoutMs: 1000,
      retries: 0,
    },
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s), isTTY: false },
    handleSignals: false,
    ...extra,
  };
  const deps = (bench: ReturnType<typeof fakeBench>): Partial<LadderDeps> => ({
    runBench: bench.runBench,
    preflight: async () => {},
    findCandidates: async (): Promise<Candidates> => ({
      models: names.map((n) => served(n)),
      baseUrl: 'http://fake/v1',
      problems: [],
    }),
  });
  return { options, deps, out: () => out, err: () => err };
}

async function summary(path: string): Promise<LadderSummary> {
  return JSON.parse(await readFile(path, 'utf8')) as LadderSummary;
}

const NAMES = ['big-14b-q8_0', 'tiny-0.5b-q4_K_M', 'small-3b-q4_K_M', 'mid-7b-q4_K_M'];

describe('runLadder', () => {
  it('climbs from the smallest model and stops at the first that passes every task', async () => {
    const bench = fakeBench((m) => (m.startsWith('tiny') ? 'fail' : 'pass'));
    const l = ladder(NAMES);
    const outcome = await runLadder(l.options, l.deps(bench));
    expect(bench.models()).toEqual(['tiny-0.5b-q4_K_M', 'small-3b-q4_K_M']);
    expect(outcome.rungs.map((r) => [r.model.id, r.status])).toEqual([
      ['tiny-0.5b-q4_K_M', 'failed'],
      ['small-3b-q4_K_M', 'passed'],
      ['mid-7b-q4_K_M', 'not_run'],
      ['big-14b-q8_0', 'not_run'],
    ]);
    expect(outcome.verdict).toBe('the suite (a, b) needs at least Q4_K_M of small-3b: 3B total, ~1.7 GiB');
    // The ladder owns the signals; each run gets its abort signal and the server's URL.
    expect(bench.calls[0]).toMatchObject({ handleSignals: false, model: { baseUrl: 'http://fake/v1' } });
    expect(bench.calls[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(l.out()).toContain('PASSES (smallest)');
    expect(l.out().trimEnd().split('\n').at(-1)).toBe(outcome.verdict);
    expect(l.err()).toMatch(/stopping: small-3b-q4_K_M passes/);

    const file = await summary(outcome.summaryPath);
    expect(file).toMatchObject({ status: 'complete', suite: 'the suite (a, b)', tasks: ['a', 'b'], k: 1 });
    expect(file.verdict).toBe(outcome.verdict);
    expect(file.passing).toEqual(['small-3b-q4_K_M']);
    expect(file.rungs.map((r) => r.status)).toEqual(['failed', 'passed', 'not_run', 'not_run']);
    expect(file.rungs[1]).toMatchObject({
      model: 'small-3b-q4_K_M',
      parameters_b: 3,
      quantization: 'Q4_K_M',
      size_source: 'estimate',
      clear_time_sec: 20,
      tasks: { a: { pass_all_k: true, trials_run: 1 }, b: { pass_all_k: true } },
    });
    expect(file.rungs[0]?.clear_time_sec).toBeNull();
  });

  it('--exhaustive runs every rung and marks every model that passes', async () => {
    // Not monotonic in size: the 7B fails where the 3B and the 14B pass.
    const bench = fakeBench((m) => (m.startsWith('tiny') || m.startsWith('mid') ? 'fail' : 'pass'));
    const l = ladder(NAMES, { exhaustive: true });
    const outcome = await runLadder(l.options, l.deps(bench));
    expect(bench.models()).toEqual(['tiny-0.5b-q4_K_M', 'small-3b-q4_K_M', 'mid-7b-q4_K_M', 'big-14b-q8_0']);
    expect(outcome.rungs.map((r) => r.status)).toEqual(['failed', 'passed', 'failed', 'passed']);
    expect(outcome.verdict).toMatch(/needs at least Q4_K_M of small-3b/);
    expect((await summary(outcome.summaryPath)).passing).toEqual(['small-3b-q4_K_M', 'big-14b-q8_0']);
    expect(l.out()).toMatch(
      /small-3b-q4_K_M .*PASSES \(smallest\)\n.*mid-7b.*fails\n.*big-14b-q8_0 .*PASSES\n/,
    );
  });

  it('a model that cannot run is recorded, and the ladder goes on to the next', async () => {
    const bench = fakeBench((m) =>
      m.startsWith('tiny') ? new InfraError('model server at http://fake/v1 answered HTTP 500') : 'pass',
    );
    const l = ladder(NAMES);
    const outcome = await runLadder(l.options, l.deps(bench));
    expect(outcome.rungs[0]).toMatchObject({
      status: 'error',
      error: 'model server at http://fake/v1 answered HTTP 500',
    });
    expect(outcome.rungs[1]?.status).toBe('passed');
    expect(l.out()).toContain('! tiny-0.5b-q4_K_M: model server at http://fake/v1 answered HTTP 500');
  });

  it('a rung whose model server fails mid-run is not measured: no verdict is built on it', async () => {
    const l = ladder(NAMES);
    const bench = fakeBench(() => 'pass');
    const runBench = async (o: BenchOptions): Promise<ResultFile[]> => {
      if (o.model.model?.startsWith('tiny') === true) {
        // Task a passed; task b's server died in its first trial.
        const kept = [
          result({ task: 'a', model: 'tiny-0.5b-q4_K_M', trials: [PASS] }),
          result({ task: 'b', model: 'tiny-0.5b-q4_K_M', trials: [{ status: 'error' }], status: 'error' }),
        ];
        throw new RunStoppedError('run stopped: unreachable: connection failed: ECONNREFUSED', kept);
      }
      if (o.model.model?.startsWith('small') === true) {
        // Not thrown, and still no failure: a context overflow errored task b's only trial.
        return [
          result({ task: 'a', model: 'small-3b-q4_K_M', trials: [PASS] }),
          result({ task: 'b', model: 'small-3b-q4_K_M', trials: [{ status: 'error' }] }),
        ];
      }
      return bench.runBench(o);
    };
    const outcome = await runLadder(l.options, { ...l.deps(bench), runBench });
    expect(outcome.rungs.map((r) => [r.model.id, r.status])).toEqual([
      ['tiny-0.5b-q4_K_M', 'error'],
      ['small-3b-q4_K_M', 'error'],
      ['mid-7b-q4_K_M', 'passed'],
      ['big-14b-q8_0', 'not_run'],
    ]);
    expect(outcome.rungs[0]?.results.map((r) => r.task_id)).toEqual(['a', 'b']);
    expect(outcome.verdict).toBe(
      'no verdict on the suite (a, b) at pass^k (k=1): tiny-0.5b-q4_K_M, small-3b-q4_K_M not measured; the smallest model measured to pass is Q4_K_M of mid-7b: 7B total, ~4.0 GiB',
    );
    expect(l.out()).toMatch(/tiny-0.5b-q4_K_M .*PASS 1\/1\s+ERROR none measured\s+-\s+not measured/);
    expect(l.out()).toContain(
      '! tiny-0.5b-q4_K_M: run stopped: unreachable: connection failed: ECONNREFUSED',
    );
    expect((await summary(outcome.summaryPath)).rungs[0]).toMatchObject({
      status: 'error',
      tasks: { a: { pass_all_k: true }, b: { status: 'error' } },
    });
  });

  it('a bug is not a model failure: it ends the ladder', async () => {
    const bench = fakeBench(() => new TypeError('oops'));
    const l = ladder(NAMES);
    await expect(runLadder(l.options, l.deps(bench))).rejects.toThrow(TypeError);
  });

  it('when no model passes, the verdict says so', async () => {
    const bench = fakeBench(() => 'fail');
    const l = ladder(NAMES);
    const outcome = await runLadder(l.options, l.deps(bench));
    expect(bench.models()).toHaveLength(4);
    expect(outcome.verdict).toBe('no model in the ladder passes the suite (a, b) at pass^k (k=1)');
  });

  it('an interruption stops the rung in flight, saves the ladder so far and climbs no further', async () => {
    const abort = new AbortController();
    const l = ladder(NAMES, { signal: abort.signal });
    const bench = fakeBench(() => 'fail');
    const runBench = async (o: BenchOptions): Promise<ResultFile[]> => {
      if (o.model.model?.startsWith('small') !== true) return bench.runBench(o);
      setTimeout(() => abort.abort(new InterruptedError('SIGINT')), 50);
      await new Promise((resolve) => o.signal?.addEventListener('abort', resolve));
      throw new InterruptedError('interrupted: containers removed, results so far are saved');
    };
    const attempt = runLadder(l.options, { ...l.deps(bench), runBench });
    await expect(attempt).rejects.toBeInstanceOf(InterruptedError);
    await expect(attempt).rejects.toThrow(/ladder-.*\.json/);
    const path = /\(ladder: (.*)\)/.exec(String(await attempt.catch((e: unknown) => e)))?.[1] ?? '';
    const file = await summary(path);
    expect(file.status).toBe('interrupted');
    expect(file.rungs.map((r) => r.status)).toEqual(['failed', 'interrupted', 'not_run', 'not_run']);
    expect(file.verdict).toBeNull();
  });

  it('rejects a server command without a GGUF folder or without its placeholders, before anything starts', async () => {
    const bench = fakeBench(() => 'pass');
    const l = ladder(NAMES, { serverCmd: 'llama-server -m {model} --port {port}' });
    await expect(runLadder(l.options, l.deps(bench))).rejects.toThrow(/--server-cmd needs --gguf-dir/);
    const g = ladder(NAMES, {
      source: { kind: 'gguf-dir', dir: '/nowhere' },
      serverCmd: 'llama-server -m {model}',
    });
    await expect(runLadder(g.options, g.deps(bench))).rejects.toBeInstanceOf(UsageError);
    expect(bench.calls).toHaveLength(0);
  });
});
