/**
 * validateTasks on tasks that run in the harness (dialogue tasks with crafted trials): proofs run at
 * once come out in the tasks' order, a passing proof is cached and not run again under the same
 * inputs, and is run again when an input changes, when asked to, or when it did not pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrialRecord } from '../../src/results/trial.js';
import type { Task } from '../../src/tasks/types.js';
import { openProofCache } from '../../src/validate/proof-cache.js';
import type { ValidationRow } from '../../src/validate/rows.js';
import { type ValidateOptions, validateTasks } from '../../src/validate/validate-tasks.js';

/** A dialogue task whose trials take `delayMs`; its oracle passes unless `sound` is false. */
function fakeTask(id: string, delayMs: number, sound = true): Task & { trials: number[] } {
  const trials: number[] = [];
  return {
    kind: 'dialogue',
    id,
    meta: { domain: 'd', difficulty: 'easy', description: id, optimalSteps: 1 },
    prompt: 'p',
    maxTurns: 3,
    flags: [],
    referenceSolution: [{ calls: [] }],
    lures: [{ id: 'lure', description: 'l', script: [{ calls: [] }], expect: { unreached: ['done'] } }],
    source: { folders: [], dialogue: `sha256:${id}` },
    dialogue: { pack: '/p', dimension: 'd' },
    environment: {
      place: 'harness',
      runTrial: async ({ index }) => {
        trials.push(index);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        const reached = index === 0 && sound;
        return {
          passed: reached,
          score: reached ? 1 : 0,
          flags: { done: { reached, turn: reached ? 1 : null, kind: 'outcome' } },
          tamper_detected: false,
          tamper_violations: [],
          failure_reason: reached ? null : 'crafted',
          turn_logs: [],
        } as unknown as TrialRecord;
      },
    },
    trials,
  };
}

const noSandbox = (): never => {
  throw new Error('no sandbox for a dialogue task');
};

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function proofs(harness = 'h1'): NonNullable<ValidateOptions['proofs']> {
  const dir = temps[0] ?? mkdtempSync(join(tmpdir(), 'proofs-'));
  if (temps.length === 0) temps.push(dir);
  return { cache: openProofCache({ dir }), inputs: { image: null, harness } };
}

describe('validateTasks', () => {
  it('proves tasks at once, reports each task as it ends, and returns rows in the tasks order', async () => {
    const tasks = [fakeTask('slow', 60), fakeTask('mid', 30), fakeTask('fast', 1)];
    const seen: ValidationRow[] = [];
    const rows = await validateTasks(tasks, {
      openSandbox: noSandbox,
      parallel: 3,
      onRow: (r) => seen.push(r),
    });
    const order = ['slow', 'mid', 'fast'].flatMap((id) => [`${id} oracle`, `${id} do-nothing`, `${id} lure`]);
    expect(rows.map((r) => `${r.taskId} ${r.run}`)).toEqual(order);
    // The fast task's rows are reported first, each task's rows together.
    expect(seen.map((r) => `${r.taskId} ${r.run}`)).toEqual([
      ...order.slice(6),
      ...order.slice(3, 6),
      ...order.slice(0, 3),
    ]);
    expect(rows.every((r) => r.kind === 'passed')).toBe(true);
  });

  it('starts the tasks with most runs first, and still reports rows in the tasks order', async () => {
    const short = fakeTask('short', 1);
    const long = fakeTask('long', 1);
    long.lures = Array.from({ length: 4 }, (_, i) => ({
      id: `lure${i}`,
      description: 'l',
      script: [{ calls: [] }],
      expect: { unreached: ['done'] },
    }));
    const started: string[] = [];
    const watched = [short, long].map((t) => {
      const dialogueTask = t as Extract<Task, { kind: 'dialogue' }>;
      const copy = { ...dialogueTask, environment: { ...dialogueTask.environment } };
      const run = copy.environment.runTrial;
      copy.environment.runTrial = (o: Parameters<typeof run>[0]) => {
        if (o.index === 0) started.push(copy.id);
        return run(o);
      };
      return copy;
    });
    const rows = await validateTasks(watched, { openSandbox: noSandbox, parallel: 2 });
    expect(started).toEqual(['long', 'short']);
    expect(rows[0]?.taskId).toBe('short');
  });

  it('does not prove again a task whose passing proof is cached under the same inputs', async () => {
    const task = fakeTask('t', 1);
    const first = await validateTasks([task], { openSandbox: noSandbox, proofs: proofs() });
    expect(task.trials).toEqual([0, 1, 2]);
    const second = await validateTasks([task], { openSandbox: noSandbox, proofs: proofs() });
    expect(task.trials).toEqual([0, 1, 2]);
    expect(second.map((r) => [r.run, r.kind, r.detail])).toEqual(
      first.map((r) => [r.run, 'cached', r.detail]),
    );
  });

  it('proves again when an input changes, or without the cache', async () => {
    const task = fakeTask('t', 1);
    await validateTasks([task], { openSandbox: noSandbox, proofs: proofs('h1') });
    const changed = await validateTasks([task], { openSandbox: noSandbox, proofs: proofs('h2') });
    expect(changed.map((r) => r.kind)).toEqual(['passed', 'passed', 'passed']);
    const edited = { ...task, prompt: 'another prompt' };
    expect((await validateTasks([edited], { openSandbox: noSandbox, proofs: proofs('h1') }))[0]?.kind).toBe(
      'passed',
    );
    await validateTasks([task], { openSandbox: noSandbox });
    expect(task.trials).toHaveLength(12);
  });

  it('never caches an unsound task', async () => {
    const task = fakeTask('t', 1, false);
    for (let i = 0; i < 2; i++) {
      const rows = await validateTasks([task], { openSandbox: noSandbox, proofs: proofs() });
      expect(rows.map((r) => r.kind)).toEqual(['failed', 'passed', 'passed']);
    }
    expect(task.trials).toEqual([0, 1, 2, 0, 1, 2]);
  });
});
