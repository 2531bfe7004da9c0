/** What a run will run: units per condition, the trial count, and the line that announces it. */
import { describe, expect, it } from 'vitest';
import { CLEAN, type RunCondition } from '../../src/results/condition.js';
import { planRun, runPlanLine } from '../../src/run/run-plan.js';

const noisy = { name: 'noisy' } as unknown as RunCondition;
const sandboxTask = { id: 'a', kind: 'sandbox' };
const dialogueTask = { id: 'd', kind: 'dialogue' };

describe('planRun', () => {
  it('runs each task once per condition, condition by condition', () => {
    const plan = planRun([sandboxTask, { id: 'b', kind: 'sandbox' }], [CLEAN, noisy], 3);
    expect(plan.units.map((u) => `${u.condition.name}:${u.task.id}`)).toEqual([
      'clean:a',
      'clean:b',
      'noisy:a',
      'noisy:b',
    ]);
    expect(plan.trials).toBe(12);
  });

  it('runs a dialogue task under every condition too, each task at its place in the run', () => {
    const plan = planRun([sandboxTask, dialogueTask], [CLEAN, noisy], 2);
    expect(plan.units.map((u) => `${u.condition.name}:${u.task.id}@${u.position}`)).toEqual([
      'clean:a@0',
      'clean:d@1',
      'noisy:a@0',
      'noisy:d@1',
    ]);
    expect(plan.trials).toBe(8);
  });

  it("counts a shard's own trials under every condition", () => {
    expect(
      planRun([sandboxTask, { id: 'b', kind: 'sandbox' }], [CLEAN, noisy], 5, { trials: 3 }).trials,
    ).toBe(6);
  });
});

describe('runPlanLine', () => {
  const base = { tasks: 2, k: 3, model: 'm', parallel: 1 };
  it('names no condition for a clean run, and the trials in the singular when there is one', () => {
    expect(runPlanLine({ ...base, conditions: [CLEAN], trials: 6 })).toBe(
      'Running 2 task(s) × k=3 (6 trials) with m, 1 at a time.',
    );
    expect(runPlanLine({ ...base, tasks: 1, k: 1, conditions: [CLEAN], trials: 1 })).toBe(
      'Running 1 task(s) × k=1 (1 trial) with m, 1 at a time.',
    );
  });
  it('counts the conditions otherwise', () => {
    expect(runPlanLine({ ...base, conditions: [CLEAN, noisy], trials: 12, parallel: 4 })).toBe(
      'Running 2 task(s) under 2 condition(s) × k=3 (12 trials) with m, 4 at a time.',
    );
  });
});
