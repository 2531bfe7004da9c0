/**
 * The proof of --shard and `results merge`: the same work run once on one machine and as 3 shards on
 * 3 machines at the same time (each its own model server, over the real OpenAI protocol, the real
 * runBench with in-memory sandboxes), merged, gives the same results files: every trial record,
 * verdict and aggregate, and the same exit. With and without early stop.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsMergeCommand } from '../../src/cli/commands/results.js';
import { CLEAN, conditionKey, conditionOf, type RunCondition } from '../../src/results/condition.js';
import type { ResultFile, RunSettings } from '../../src/results/result-file.js';
import { readResultFiles } from '../../src/results/store.js';
import { planShard } from '../../src/run/shard-plan.js';
import { formatSummary, unmeasuredNote } from '../../src/run/summary.js';
import { InfraError } from '../../src/util/errors.js';
import { runSettings } from '../helpers/run-settings.js';
import {
  benchOn,
  type Play,
  quietRun,
  startMachine,
  task,
  verdictsOf,
  withoutServer,
} from './shard-bench.js';

const MODEL = 'qwen-test';
const K = 5;
const TASKS = [task('gamma'), task('alpha'), task('beta')];

/** alpha passes pass^k; beta and gamma fail it in different ways, and gamma has a trial not measured. */
const PLAYS: Record<string, readonly Play[]> = {
  alpha_v1: ['solve', 'solve', 'text', 'solve', 'bad'],
  beta_v1: ['solve', 'wrong', 'solve', 'text', 'skip'],
  gamma_v1: ['solve', 'bad', 'overflow', 'skip', 'solve'],
};
const plays = (_model: string, taskId: string, trial: number): Play => PLAYS[taskId]?.[trial] ?? 'solve';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'shard-proof-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The work on one machine, then as 3 shards on 3 machines at once, merged; both sets of results. */
async function oneAndThree(name: string, settings: RunSettings, conditions: RunCondition[] = [CLEAN]) {
  const dir = (part: string): string => join(root, `${name}-${part}`);
  const single = await startMachine({ models: [MODEL], k: K, plays });
  const machines = await Promise.all([1, 2, 3].map(() => startMachine({ models: [MODEL], k: K, plays })));
  try {
    const alone = await benchOn(
      single,
      quietRun(MODEL, dir('single'), { tasks: TASKS, settings, conditions }),
    );
    const shards = await Promise.all(
      machines.map((machine, i) =>
        benchOn(
          machine,
          quietRun(MODEL, dir(`shard-${i + 1}`), {
            // Each machine lists the tasks in its own order: the deal does not depend on it.
            tasks: i === 1 ? [...TASKS].reverse() : TASKS,
            settings,
            conditions,
            parallel: 2,
            shard: planShard({
              spec: { index: i + 1, count: 3 },
              tasks: TASKS,
              settings,
              conditions: conditions.map(conditionKey),
            }),
          }),
        ),
      ),
    );
    let out = '';
    let err = '';
    const merging = resultsMergeCommand(
      [dir('shard-1'), dir('shard-2'), dir('shard-3')],
      { into: dir('merged') },
      {
        stdout: { write: (s: string) => (out += s) },
        stderr: { write: (s: string) => (err += s) },
      },
    );
    const exit = await merging.then(
      () => null,
      (e: unknown) => e,
    );
    const merged = (await readResultFiles(dir('merged'))).results.map((f) => f.result);
    return { alone, shards, merged, exit, out, err, dir };
  } finally {
    await Promise.all([single, ...machines].map((m) => m.close()));
  }
}

const byTask = (results: readonly ResultFile[]): Map<string, ResultFile> =>
  new Map(results.map((r) => [r.task_id, r]));

describe('the same work on one machine and on 3 shards', () => {
  it('gives the same results files, trial by trial, once merged', async () => {
    const { alone, shards, merged, exit, out, err } = await oneAndThree('plain', runSettings({ k: K }));

    // The shards split the trials: 15 over 3 machines, 5 each, every task on every machine.
    expect(shards.map((s) => s.reduce((n, r) => n + r.trials.length, 0))).toEqual([5, 5, 5]);
    expect(shards.every((s) => s.length === 3)).toBe(true);
    // A shard's own table says it holds a part, not a pass^k.
    expect(formatSummary(shards[0] ?? [])).toMatch(
      /^alpha_v1\s+qwen-test\s+PART \(2\/2 passed, shard 1\/3: its 2 of k=5\)/m,
    );
    for (const part of shards.flat()) {
      expect(part.shard?.trials).toEqual(part.trials.map((t) => t.index));
      expect(part.comparable).toBe(false);
      expect(part.non_comparable_reasons.at(-1)).toMatch(
        /^shard \d\/3 of run work-[0-9a-f]{12}: \d of k=5 trials/,
      );
    }

    // The verdicts differ task by task, so the comparison below means something.
    const single = byTask(alone);
    expect([...single.values()].map((r) => [r.task_id, r.pass_all_k, r.trials_run])).toEqual([
      ['gamma_v1', false, 4],
      ['alpha_v1', true, 5],
      ['beta_v1', false, 5],
    ]);
    expect(single.get('alpha_v1')?.text_tool_calls).toBe(1);
    expect(single.get('gamma_v1')?.non_comparable_reasons).toEqual([
      '1 of 5 trials not measured (context_overflow)',
    ]);

    expect(merged).toHaveLength(3);
    for (const r of merged) {
      const same = single.get(r.task_id);
      expect(same, r.task_id).toBeDefined();
      expect(verdictsOf(r)).toEqual(verdictsOf(same as ResultFile));
      expect(r.merged?.parts.map((p) => [p.shard, p.trials])).toEqual(
        (
          shards.map((s, i) => [
            i + 1,
            s.find((x) => x.task_id === r.task_id)?.trials.map((t) => t.index),
          ]) as [number, number[]][]
        ).filter(([, t]) => t !== undefined && t.length > 0),
      );
    }
    // One run id for the whole merge, as one run has.
    expect(new Set(merged.map((r) => r.run_id)).size).toBe(1);

    // The merge ends as the run would: the trial that was not measured is exit 3, with the same line.
    expect(exit).toBeInstanceOf(InfraError);
    expect(withoutServer((exit as InfraError).message)).toBe(withoutServer(unmeasuredNote(alone) ?? ''));
    expect(out).toMatch(/alpha_v1\s+qwen-test\s+PASS \(k=5\)/);
    expect(out).toMatch(/gamma_v1\s+qwen-test\s+FAIL \(3\/4 passed of k=5, 1 not measured\)/);
    expect(err).toMatch(
      /^merged 9 shard file\(s\) of run work-[0-9a-f]{12} \(3 shards\) into .*: 3 results file\(s\)$/m,
    );
  });

  it('with early stop, each task on one machine, stopping where one machine stops', async () => {
    const settings = runSettings({ k: K, early_stop: true });
    const { alone, shards, merged } = await oneAndThree('early', settings);
    // Three tasks dealt whole over three shards: one each.
    expect(shards.map((s) => s.map((r) => r.task_id))).toEqual([['alpha_v1'], ['beta_v1'], ['gamma_v1']]);
    const single = byTask(alone);
    expect(single.get('beta_v1')).toMatchObject({ early_stopped: true, trials_run: 2 });
    // gamma: trial 3 is not measured (and decides nothing), trial 4 fails.
    expect(single.get('gamma_v1')).toMatchObject({ early_stopped: true, trials_run: 3 });
    expect(single.get('gamma_v1')?.trials).toHaveLength(4);
    expect(merged).toHaveLength(3);
    for (const r of merged) expect(verdictsOf(r)).toEqual(verdictsOf(single.get(r.task_id) as ResultFile));
  });

  it('merging the same shards again writes the same files', async () => {
    const settings = runSettings({ k: 2 });
    const { dir, merged } = await oneAndThree('again', settings);
    const names = await readdir(dir('merged'));
    await resultsMergeCommand(
      [dir('shard-3'), dir('shard-1'), dir('shard-2')],
      { into: dir('merged') },
      {
        stdout: { write: () => true },
        stderr: { write: () => true },
      },
    ).catch(() => {});
    expect(await readdir(dir('merged'))).toEqual(names);
    const again = (await readResultFiles(dir('merged'))).results.map((f) => f.result);
    expect(again).toEqual(merged);
  });

  it('under two conditions, each trial with every condition on the machine that owns it', async () => {
    // Noisy: tool calls fail by (task, trial, call) alone, the same faults on any machine.
    const noisy: RunCondition = { name: 'noisy', failure_rate: 0.5, fault_timeout_sec: 0 };
    const { alone, shards, merged } = await oneAndThree('conditions', runSettings({ k: 3 }), [CLEAN, noisy]);
    expect(shards.map((s) => s.length)).toEqual([6, 6, 6]);
    const key = (r: ResultFile): string => `${r.task_id} ${conditionKey(conditionOf(r))}`;
    const single = new Map(alone.map((r) => [key(r), r]));
    // The faults made a difference, so the comparison covers them.
    expect(alone.filter((r) => r.condition?.name === 'noisy').some((r) => r.score < 1)).toBe(true);
    expect(merged.map(key).sort()).toEqual([...single.keys()].sort());
    for (const r of merged) expect(verdictsOf(r)).toEqual(verdictsOf(single.get(key(r)) as ResultFile));
  });

  it('shards sharing one results folder resume only their own files, and the folder merges', async () => {
    const settings = runSettings({ k: 2 });
    const shared = join(root, 'shared');
    const json = async (): Promise<string[]> => (await readdir(shared)).filter((n) => n.endsWith('.json'));
    const machine = await startMachine({ models: [MODEL], k: 2, plays });
    try {
      const shard = (index: number) => planShard({ spec: { index, count: 2 }, tasks: TASKS, settings });
      await benchOn(machine, quietRun(MODEL, shared, { tasks: TASKS, settings, shard: shard(1) }));
      // Shard 1's files are complete, but not shard 2's to continue: it runs its own trials.
      const second = await benchOn(
        machine,
        quietRun(MODEL, shared, { tasks: TASKS, settings, resume: true, shard: shard(2) }),
      );
      expect(second.map((r) => [r.task_id, r.shard?.index, r.trials.map((t) => t.index)])).toEqual([
        ['gamma_v1', 2, [1]],
        ['alpha_v1', 2, [1]],
        ['beta_v1', 2, [1]],
      ]);
      const files = await json();
      expect(files).toHaveLength(6);
      // Its own files are complete now: a second --resume runs nothing and writes no new file.
      const again = await benchOn(
        machine,
        quietRun(MODEL, shared, { tasks: TASKS, settings, resume: true, shard: shard(2) }),
      );
      expect(again.map((r) => r.run_id)).toEqual(second.map((r) => r.run_id));
      expect(await json()).toEqual(files);
    } finally {
      await machine.close();
    }
    await resultsMergeCommand(
      [shared],
      { into: join(root, 'shared-merged') },
      {
        stdout: { write: () => true },
        stderr: { write: () => true },
      },
    );
    const merged = (await readResultFiles(join(root, 'shared-merged'))).results.map((f) => f.result);
    expect(merged.map((r) => [r.task_id, r.status, r.trials.map((t) => t.index)])).toEqual([
      ['alpha_v1', 'complete', [0, 1]],
      ['beta_v1', 'complete', [0, 1]],
      ['gamma_v1', 'complete', [0, 1]],
    ]);
  });
});
