/** --shard i/N: the syntax, the deal (a partition of the trials, balanced, order-free) and the run group. */
import { describe, expect, it } from 'vitest';
import { dealTrials } from '../../src/results/shard-deal.js';
import { parseShard } from '../../src/run/shard.js';
import { describeShard, parseRunGroup, planShard } from '../../src/run/shard-plan.js';
import type { Task } from '../../src/tasks/types.js';
import { UsageError } from '../../src/util/errors.js';
import { SAY_DONE } from '../helpers/memory-run.js';
import { runSettings } from '../helpers/run-settings.js';

const IDS = ['tdd_order_v1', 'debug_python_v1', 'big_file_edit_v1', 'doc_trap_v1'];
const tasks = (ids: readonly string[]): Task[] => ids.map((id) => ({ ...SAY_DONE, id }));

/** Every (task, trial) the shards of a deal own, as `task#trial`, with how many times each is owned. */
function owners(count: number, ids: readonly string[], k: number, earlyStop: boolean): Map<string, number[]> {
  const owned = new Map<string, number[]>();
  for (let index = 1; index <= count; index++) {
    for (const [task, trials] of dealTrials({ index, count }, ids, k, earlyStop))
      for (const t of trials) owned.set(`${task}#${t}`, [...(owned.get(`${task}#${t}`) ?? []), index]);
  }
  return owned;
}

describe('parseShard', () => {
  it('reads i/N', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });

  it.each([
    ['3', '--shard must be i/N, e.g. 2/3 (shard 2 of 3), got "3"'],
    ['a/b', '--shard must be i/N, e.g. 2/3 (shard 2 of 3), got "a/b"'],
    ['-1/3', '--shard must be i/N, e.g. 2/3 (shard 2 of 3), got "-1/3"'],
    ['1.5/3', '--shard must be i/N, e.g. 2/3 (shard 2 of 3), got "1.5/3"'],
    ['0/3', '--shard 0/3: i must be between 1 and N (3); shards count from 1'],
    ['4/3', '--shard 4/3: i must be between 1 and N (3); shards count from 1'],
    ['1/0', '--shard 1/0: N must be between 1 and 10000'],
  ])('refuses %s in one line', (text, message) => {
    expect(() => parseShard(text)).toThrow(new UsageError(message));
  });
});

describe('dealTrials', () => {
  it.each([
    [1, 1],
    [3, 1],
    [3, 5],
    [4, 2],
    [7, 3],
    [20, 2],
  ])('over %i shards with k=%i, every trial has exactly one shard', (count, k) => {
    const owned = owners(count, IDS, k, false);
    expect(owned.size).toBe(IDS.length * k);
    expect([...owned.values()].every((o) => o.length === 1)).toBe(true);
  });

  it('gives every shard the same number of trials, give or take one, and a mix of the tasks', () => {
    const sizes = [1, 2, 3].map((index) =>
      [...dealTrials({ index, count: 3 }, IDS, 5, false).values()].reduce((n, t) => n + t.length, 0),
    );
    expect(sizes).toEqual([7, 7, 6]);
    // 20 trials of 4 tasks over 3 shards: each shard has trials of every task.
    for (const index of [1, 2, 3]) expect(dealTrials({ index, count: 3 }, IDS, 5, false).size).toBe(4);
  });

  it('deals in task id order then trial order, whatever order the tasks were given in', () => {
    const given = dealTrials({ index: 2, count: 3 }, IDS, 5, false);
    const reversed = dealTrials({ index: 2, count: 3 }, [...IDS].reverse(), 5, false);
    expect([...reversed]).toEqual([...given]);
    // big_file_edit_v1 first (p = 0..4), then debug_python_v1 (p = 5..9): shard 2 holds p = 1, 4, 7.
    expect(given.get('big_file_edit_v1')).toEqual([1, 4]);
    expect(given.get('debug_python_v1')).toEqual([2]);
  });

  it('sorts by code point, not by locale', () => {
    // localeCompare would put "a_b" before "aB"; code points put "B" (66) before "_" (95).
    const deal = dealTrials({ index: 1, count: 2 }, ['a_b', 'aB'], 1, false);
    expect([...deal.keys()]).toEqual(['aB']);
  });

  it('deals a task whole under early stop, so one machine sees its trials in order', () => {
    const owned = owners(3, IDS, 5, true);
    for (const id of IDS) {
      const shards = new Set([0, 1, 2, 3, 4].map((t) => owned.get(`${id}#${t}`)?.join()));
      expect(shards.size).toBe(1);
    }
    expect(dealTrials({ index: 1, count: 3 }, IDS, 5, true)).toEqual(
      new Map([
        ['big_file_edit_v1', [0, 1, 2, 3, 4]],
        ['tdd_order_v1', [0, 1, 2, 3, 4]],
      ]),
    );
  });

  it('leaves a shard with nothing when there are fewer trials than shards', () => {
    expect(dealTrials({ index: 3, count: 3 }, ['only'], 2, false).size).toBe(0);
  });
});

describe('planShard', () => {
  const settings = runSettings({ k: 5 });

  it('records each task its shard owns trials of, and the run every shard agrees on', () => {
    const plan = planShard({ spec: { index: 1, count: 3 }, tasks: tasks(IDS), settings });
    expect(plan.record('big_file_edit_v1')).toEqual({
      index: 1,
      count: 3,
      group: plan.group,
      tasks: ['big_file_edit_v1', 'debug_python_v1', 'doc_trap_v1', 'tdd_order_v1'],
      conditions: ['clean'],
      trials: [0, 3],
    });
    expect(plan.group).toMatch(/^work-[0-9a-f]{12}$/);
    expect(describeShard(plan)).toBe(`shard 1/3 of run ${plan.group}: 7 of 20 trials`);
    expect(
      planShard({ spec: { index: 3, count: 3 }, tasks: tasks(['only']), settings: runSettings() }).record(
        'only',
      ),
    ).toBeNull();
  });

  it('derives the same run group on every machine given the same work, in any order, and another for other work', () => {
    const group = (o: { ids?: string[]; k?: number; count?: number; prompt?: string }) =>
      planShard({
        spec: { index: 1, count: o.count ?? 3 },
        tasks: (o.ids ?? IDS).map((id) => ({ ...SAY_DONE, id, prompt: o.prompt ?? SAY_DONE.prompt })),
        settings: runSettings({ k: o.k ?? 5 }),
      }).group;
    const base = group({});
    expect(group({ ids: [...IDS].reverse() })).toBe(base);
    expect(planShard({ spec: { index: 2, count: 3 }, tasks: tasks(IDS), settings }).group).toBe(base);
    expect(group({ k: 3 })).not.toBe(base);
    expect(group({ count: 4 })).not.toBe(base);
    expect(group({ ids: IDS.slice(1) })).not.toBe(base);
    // Another task version (the prompt is part of it).
    expect(group({ prompt: 'Say it.' })).not.toBe(base);
  });

  it('is another run when variant tasks draw their instances with another seed, and the same for tasks without', () => {
    const drawn = (ids: readonly string[]): Task[] =>
      ids.map((id) => ({
        ...SAY_DONE,
        id,
        folder: { dir: `/tasks/${id}`, flagCode: null },
        variants: {
          drawn: 'generator',
          generator: 'g',
          digest: 'd',
          values: {},
          folderFiles: () => [],
          treeProblem: () => null,
          instanceOf: () => SAY_DONE,
        },
      }));
    const group = (t: Task[], seed: number) =>
      planShard({ spec: { index: 1, count: 2 }, tasks: t, settings, variants: { seed } }).group;
    expect(group(drawn(IDS), 1)).not.toBe(group(drawn(IDS), 2));
    expect(group(drawn(IDS), 1)).toBe(group(drawn(IDS), 1));
    // Without variants the seed draws nothing: the group is what it was before seeds existed.
    expect(group(tasks(IDS), 2)).toBe(
      planShard({ spec: { index: 1, count: 2 }, tasks: tasks(IDS), settings }).group,
    );
  });

  it('takes a --run-group as given', () => {
    const plan = planShard({
      spec: { index: 2, count: 2 },
      group: 'nightly-42',
      tasks: tasks(IDS),
      settings,
    });
    expect(plan.record('doc_trap_v1')?.group).toBe('nightly-42');
  });
});

describe('parseRunGroup', () => {
  it('takes a slug and refuses anything else in one line', () => {
    expect(parseRunGroup('nightly_2025.01-a')).toBe('nightly_2025.01-a');
    for (const bad of ['', '-x', '../x', 'a b', 'x'.repeat(65)])
      expect(() => parseRunGroup(bad)).toThrow(/^--run-group must be 1-64 letters, digits or \._- starting/);
  });
});
