/**
 * `ladder --target`: the real runLadder and runBench (no Docker: scripted servers, in-memory
 * sandboxes), each rung run round by round into one results file per task until its bound decides.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LadderOptions, runLadder } from '../../src/ladder/run-ladder.js';
import type { SequentialRule } from '../../src/ladder/sequential-rule.js';
import type { LadderSummary } from '../../src/ladder/summary-file.js';
import { readLadderSummary } from '../../src/ladder/summary-schema.js';
import { readResultFiles } from '../../src/results/store.js';
import type { BenchOptions } from '../../src/run/run-bench.js';
import { runBench } from '../../src/run/run-bench.js';
import type { Task } from '../../src/tasks/types.js';
import { UsageError } from '../../src/util/errors.js';
import { runSettings } from '../helpers/run-settings.js';
import { type Machine, machineLadder, type Play, startMachine, task } from '../run/shard-bench.js';
import { served } from './models.js';

/** Smallest first by their names: never passes, passes every other trial, always passes (twice). */
const MODELS = ['never-1b-q4_K_M', 'half-3b-q4_K_M', 'full-7b-q4_K_M', 'full-14b-q8_0'];
const plays = (model: string, _task: string, trial: number): Play => {
  if (model.startsWith('never')) return 'wrong';
  if (model.startsWith('half')) return trial % 2 === 0 ? 'solve' : 'wrong';
  return 'solve';
};

let root: string;
let machine: Machine;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sequential-ladder-'));
  machine = await startMachine({ models: MODELS, k: 30, plays });
});
afterAll(async () => {
  await machine.close();
  await rm(root, { recursive: true, force: true });
});

async function climb(
  name: string,
  tasks: Task[],
  rule: SequentialRule | null,
  extra: Partial<LadderOptions> = {},
) {
  let out = '';
  let err = '';
  const settings = runSettings({ k: rule?.maxK ?? 1 });
  const resultsDir = join(root, name);
  const benchCalls: BenchOptions[] = [];
  const outcome = await runLadder(
    {
      ...machineLadder({
        tasks,
        suite: tasks.map((t) => t.id).join(', '),
        models: MODELS,
        settings,
        resultsDir,
      }),
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s), isTTY: false },
      ...(rule === null ? {} : { sequential: rule }),
      ...extra,
    },
    {
      runBench: (o) => {
        benchCalls.push(o);
        return runBench(o, machine.deps);
      },
      preflight: async () => {},
      findCandidates: async () => ({
        models: MODELS.map((m) => served(m)),
        baseUrl: 'http://machine/v1',
        problems: [],
      }),
    },
  );
  const summary = JSON.parse(await readFile(outcome.summaryPath, 'utf8')) as LadderSummary;
  const files = (await readResultFiles(resultsDir)).results.map((f) => f.result);
  return { outcome, out, err, summary, files, benchCalls };
}

describe('ladder --target 0.8 --confidence 0.9 --max-k 30', () => {
  const rule = { target: 0.8, confidence: 0.9, maxK: 30 };

  it('drops the failing rungs early, names the first full pass with its bound, and runs nothing above it', async () => {
    const { outcome, out, err, summary, files } = await climb('one-task', [task('alpha')], rule);
    // Each round says where the bound stands.
    expect(err).toContain('full-7b-q4_K_M: 10/10 passed, pass rate 0.79–1.00 after 10 round(s)');
    expect(err).toContain('full-7b-q4_K_M: 11/11 passed, pass rate ≥ 0.81 after 11 round(s)');
    expect(outcome.rungs.map((r) => r.status)).toEqual(['failed', 'failed', 'passed', 'not_run']);
    const [never, half, full] = outcome.rungs.map((r) => r.sequential);
    // 0 of 2: the upper bound 1 - 0.1^(1/2) = 0.68 is below 0.8.
    expect(never).toMatchObject({ passed: 0, measured: 2, decision: 'failed' });
    expect(half?.decision).toBe('failed');
    expect(half?.measured).toBeLessThan(30);
    // 11 of 11: the lower bound 0.1^(1/11) = 0.811 reaches 0.8 (10 of 10 gives 0.794).
    expect(full).toMatchObject({ passed: 11, measured: 11, decision: 'passed' });
    expect(full?.lower).toBeCloseTo(0.1 ** (1 / 11), 6);
    expect(outcome.verdict).toBe(
      'full-7b-q4_K_M passes: pass rate ≥ 0.81 at 90 % confidence, 11 trials; the smallest model to pass alpha_v1 at target 0.8',
    );
    expect(out).toContain('fails (pass rate ≤ 0.69, 2 trials)');
    expect(out).toContain('PASSES (smallest) (pass rate ≥ 0.81, 11 trials)');
    expect(out).toMatch(/full-7b-q4_K_M .* 11\/11 /);
    // One results file per rung and task, continued round after round (k = --max-k, 11 trials kept).
    const full7 = files.filter((f) => f.model === 'full-7b-q4_K_M');
    expect(full7.map((f) => [f.status, f.k, f.trials.length])).toEqual([['complete', 30, 11]]);
    expect(files.some((f) => f.model === 'full-14b-q8_0')).toBe(false);
    expect(summary).toMatchObject({ target: 0.8, confidence: 0.9, max_k: 30 });
    expect(summary.rungs[2]?.clear_time_sec).not.toBeNull();
    expect((await readLadderSummary(outcome.summaryPath)).ok).toBe(true);
    expect(summary.rungs[2]?.sequential).toMatchObject({
      decision: 'passed',
      passed: 11,
      measured: 11,
      trials_per_task: 11,
    });
  });

  it('pools the tasks: a round is one trial of each, on --parallel workers', async () => {
    const { outcome, files } = await climb('two-tasks', [task('alpha'), task('beta')], rule, { parallel: 2 });
    // 12 of 12 over two tasks (6 rounds): 11 of 11 would need a sixth round anyway.
    expect(outcome.rungs[2]?.sequential).toMatchObject({ passed: 12, measured: 12, trialsPerTask: 6 });
    expect(files.filter((f) => f.model === 'full-7b-q4_K_M').map((f) => f.trials.length)).toEqual([6, 6]);
    expect(outcome.rungs[0]?.sequential).toMatchObject({ measured: 2, trialsPerTask: 1 });
  });
});

describe('a rung still open at --max-k', () => {
  it('is undecided, never a pass, and the verdict says so', async () => {
    const rule = { target: 0.9, confidence: 0.9, maxK: 3 };
    const { outcome, out } = await climb('undecided', [task('alpha')], rule, {
      source: { kind: 'server', baseUrl: 'http://machine/v1', models: MODELS },
    });
    const half = outcome.rungs[1];
    expect(half?.status).toBe('undecided');
    expect(half?.sequential).toMatchObject({ passed: 2, measured: 3, decision: 'undecided' });
    // 3 of 3 is not enough for 0.9 either (lower bound 0.46): nothing passes.
    expect(outcome.rungs.map((r) => r.status)).toEqual(['failed', 'undecided', 'undecided', 'undecided']);
    expect(outcome.verdict).toMatch(
      /^no model in the ladder passes alpha_v1 at target 0.9 \(90 % confidence\); not decided: /,
    );
    expect(outcome.verdict).toContain('half-3b-q4_K_M (undecided at --max-k 3)');
    expect(out).toContain('undecided (pass rate 0.19–0.97, 3 trials)');
  });
});

describe('without --target', () => {
  it('runs each rung once at pass^k, as before: no rounds, no bound in the summary', async () => {
    const { outcome, summary, benchCalls } = await climb('pass-k', [task('alpha')], null);
    expect(outcome.rungs.map((r) => r.status)).toEqual(['failed', 'passed', 'not_run', 'not_run']);
    expect(benchCalls.map((c) => c.trialsUpTo)).toEqual([undefined, undefined]);
    expect(outcome.rungs.every((r) => r.sequential === undefined)).toBe(true);
    expect('target' in summary).toBe(false);
    expect(summary.rungs.every((r) => !('sequential' in r))).toBe(true);
  });
});

describe('option checks', () => {
  it('refuses a target outside (0, 1) in one line', async () => {
    await expect(
      climb('bad-target', [task('alpha')], { target: 0, confidence: 0.9, maxK: 3 }),
    ).rejects.toThrow(new UsageError('--target must be above 0 and below 1 for a sequential ladder, got 0'));
  });
});
