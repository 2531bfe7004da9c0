/**
 * `ladder --shard`: three machines climb the same ladder at once, each its share of every rung; the
 * merge's rungs and verdict are those of the ladder on one machine (that one stopping at the first
 * passing rung, or running them all), including a rung one machine could not measure.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsMergeCommand } from '../../src/cli/commands/results.js';
import { type LadderOptions, runLadder } from '../../src/ladder/run-ladder.js';
import type { LadderSummary } from '../../src/ladder/summary-file.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { readResultFiles } from '../../src/results/store.js';
import { runBench } from '../../src/run/run-bench.js';
import { planShard } from '../../src/run/shard-plan.js';
import { InfraError, UsageError } from '../../src/util/errors.js';
import { runSettings } from '../helpers/run-settings.js';
import { served } from '../ladder/models.js';
import { type Machine, machineLadder, type Play, startMachine, task, verdictsOf } from './shard-bench.js';

const MODELS = ['big-14b-q8_0', 'tiny-0.5b-q4_K_M', 'mid-7b-q4_K_M', 'small-3b-q4_K_M'];
const TASKS = [task('alpha'), task('beta'), task('gamma')];
const SUITE = 'the suite (alpha_v1, beta_v1, gamma_v1)';
const K = 3;
const settings = runSettings({ k: K });

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'shard-ladder-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function ladderOn(machine: Machine, resultsDir: string, extra: Partial<LadderOptions>) {
  const options: LadderOptions = {
    ...machineLadder({ tasks: TASKS, suite: SUITE, models: MODELS, settings, resultsDir }),
    ...extra,
  };
  return runLadder(options, {
    runBench: (o) => runBench(o, machine.deps),
    preflight: async () => {},
    findCandidates: async () => ({
      models: MODELS.map((m) => served(m)),
      baseUrl: 'http://machine/v1',
      problems: [],
    }),
  });
}

/** One machine climbing alone (stopping, and exhaustive), three climbing as shards, and their merge. */
async function climb(
  name: string,
  plays: (model: string, task: string, trial: number) => Play,
  unreachable: { alone: string[]; shard2: string[] },
) {
  const dir = (part: string): string => join(root, `${name}-${part}`);
  const machine = (down: string[] = []) => startMachine({ models: MODELS, k: K, plays, unreachable: down });
  const alone = await machine(unreachable.alone);
  const shardMachines = await Promise.all([[], unreachable.shard2, []].map(machine));
  try {
    const stopping = await ladderOn(alone, dir('stopping'), {});
    const exhaustive = await ladderOn(alone, dir('exhaustive'), { exhaustive: true });
    const shards = await Promise.all(
      shardMachines.map((m, i) =>
        ladderOn(m, dir(`shard-${i + 1}`), {
          shard: planShard({ spec: { index: i + 1, count: 3 }, tasks: TASKS, settings }),
        }),
      ),
    );
    let out = '';
    const exit = await resultsMergeCommand(
      [1, 2, 3].map((i) => dir(`shard-${i}`)),
      { into: dir('merged') },
      { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true } },
    ).then(
      () => null,
      (e: unknown) => e,
    );
    const [summaryName] = (await readdir(dir('merged'))).filter((n) => n.startsWith('ladder-'));
    const merged = JSON.parse(
      await readFile(join(dir('merged'), summaryName ?? ''), 'utf8'),
    ) as LadderSummary;
    const results = async (part: string): Promise<ResultFile[]> =>
      (await readResultFiles(dir(part))).results.map((f) => f.result);
    return { stopping, exhaustive, shards, merged, out, exit, results };
  } finally {
    await Promise.all([alone, ...shardMachines].map((m) => m.close()));
  }
}

describe('ladder --shard, merged', () => {
  it('reaches the verdict, the rungs and the results of the ladder on one machine', async () => {
    // tiny fails a trial of alpha, small one of gamma; mid and big pass everything.
    const plays = (model: string, taskId: string, trial: number): Play => {
      if (model.startsWith('tiny') && taskId === 'alpha_v1' && trial === 2) return 'wrong';
      if (model.startsWith('small') && taskId === 'gamma_v1' && trial === 1) return 'skip';
      return trial === 0 ? 'text' : 'solve';
    };
    const { stopping, exhaustive, shards, merged, out, exit, results } = await climb('plain', plays, {
      alone: [],
      shard2: [],
    });
    expect(exit).toBeNull();

    expect(stopping.rungs.map((r) => r.status)).toEqual(['failed', 'failed', 'passed', 'not_run']);
    expect(stopping.verdict).toBe(`${SUITE} needs at least Q4_K_M of mid-7b: 7B total, ~4.0 GiB`);
    // No shard stops, and none has a verdict of its own.
    for (const s of shards) {
      expect(s.rungs.every((r) => r.status !== 'not_run')).toBe(true);
      expect(s.verdict).toMatch(
        /^shard \d\/3 of run work-[0-9a-f]{12}: 3 of 9 trials on every rung; the verdict comes from merging/,
      );
    }
    expect(shards[1]?.rungs.map((r) => r.status)).toEqual(['passed', 'failed', 'passed', 'passed']);

    expect(merged.verdict).toBe(stopping.verdict);
    expect(merged.verdict).toBe(exhaustive.verdict);
    expect(out.trimEnd().split('\n').at(-1)).toBe(stopping.verdict);
    expect(merged.rungs.map((r) => [r.model, r.status])).toEqual(
      exhaustive.rungs.map((r) => [r.model.label, r.status]),
    );
    expect(merged.passing).toEqual(['mid-7b-q4_K_M', 'big-14b-q8_0']);
    expect(merged).toMatchObject({ status: 'complete', exhaustive: true, merged: { count: 3 } });

    // Every rung's merged results are the exhaustive ladder's, trial by trial.
    const single = new Map((await results('exhaustive')).map((r) => [`${r.model}/${r.task_id}`, r]));
    const joined = await results('merged');
    expect(joined).toHaveLength(MODELS.length * TASKS.length);
    for (const r of joined)
      expect(verdictsOf(r)).toEqual(verdictsOf(single.get(`${r.model}/${r.task_id}`) as ResultFile));
  });

  it('leaves the verdict open, as one machine does, when a machine could not measure a rung below the passing one', async () => {
    const plays = (model: string, taskId: string, trial: number): Play =>
      model.startsWith('tiny') && taskId === 'beta_v1' && trial === 0 ? 'skip' : 'solve';
    const { stopping, merged, out, exit } = await climb('unmeasured', plays, {
      alone: ['small-3b-q4_K_M'],
      shard2: ['small-3b-q4_K_M'],
    });
    expect(stopping.rungs.map((r) => r.status)).toEqual(['failed', 'error', 'passed', 'not_run']);
    expect(stopping.verdict).toMatch(
      /^no verdict on .* small-3b-q4_K_M not measured; the smallest model measured to pass is Q4_K_M of mid-7b/,
    );
    expect(merged.verdict).toBe(stopping.verdict);
    expect(merged.rungs[1]).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/^shard 2\/3: .*cannot be reached/),
    });
    expect(out).toContain(stopping.verdict);
    // The merged results of small are missing shard 2's trials: said, and exit 3.
    expect(exit).toBeInstanceOf(InfraError);
    expect((exit as InfraError).message).toMatch(
      /^the merged results are not whole: task \w+, model small-3b-q4_K_M: shard 2\/3: no results/,
    );
  });

  it('refuses shard ladders of other models, and a rung served under two names', async () => {
    await climb('refusals', () => 'solve', { alone: [], shard2: [] });
    const shardDirs = [1, 2, 3].map((i) => join(root, `refusals-shard-${i}`));
    /** The shard folders again, with shard `index`'s ladder summary changed. */
    const doctored = async (name: string, index: number, change: (s: LadderSummary) => LadderSummary) => {
      const dirs = shardDirs.map((d) => `${d}-${name}`);
      for (const [i, d] of dirs.entries()) await cp(shardDirs[i] as string, d, { recursive: true });
      const dir = dirs[index - 1] as string;
      const [file] = (await readdir(dir)).filter((n) => n.startsWith('ladder-'));
      const path = join(dir, file as string);
      await writeFile(
        path,
        JSON.stringify(change(JSON.parse(await readFile(path, 'utf8')) as LadderSummary)),
      );
      let err = '';
      const into = join(root, `refusals-into-${name}`);
      const outcome = await resultsMergeCommand(
        dirs,
        { into },
        {
          stdout: { write: () => true },
          stderr: { write: (t: string) => (err += t) },
        },
      ).then(
        () => null,
        (e: unknown) => e,
      );
      expect(outcome).toBeInstanceOf(UsageError);
      expect(await readdir(into)).toEqual([]);
      return err;
    };
    const fewer = await doctored('fewer', 3, (s) => ({ ...s, rungs: s.rungs.slice(0, 3) }));
    expect(fewer).toMatch(
      /^refused: other ladders: rungs tiny-0\.5b-q4_K_M, small-3b-q4_K_M, mid-7b-q4_K_M, big-14b-q8_0 \(ladder-.*\) vs rungs tiny-0\.5b-q4_K_M, small-3b-q4_K_M, mid-7b-q4_K_M \(ladder-.*\): every machine must offer the same models$/m,
    );
    const renamed = await doctored('renamed', 2, (s) => ({
      ...s,
      rungs: s.rungs.map((r, i) => (i === 1 ? { ...r, results_model: 'small-renamed' } : r)),
    }));
    expect(renamed).toMatch(
      /^refused: rung small-3b-q4_K_M ran as model small-3b-q4_K_M \(ladder-.*\) and small-renamed \(ladder-.*\): serve it under one name on every machine$/m,
    );
  });
});
