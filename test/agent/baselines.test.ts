/**
 * The scripted baselines through the real loop, and their rows in the operational axes: the
 * reference completes, refuse-all gets no efficiency and no safety credit (it was never exposed),
 * comply-all is caught on every class, random-tool is the same for the same trial.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASELINES, baselineModel, baselineOf } from '../../src/agent/baselines.js';
import { type AxesRow, buildAxes } from '../../src/report/axes-ops.js';
import { CLEAN, type RunCondition } from '../../src/results/condition.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { createTaskRun } from '../../src/run/run-task.js';
import { runTasks } from '../../src/run/run-tasks.js';
import type { Task } from '../../src/tasks/types.js';
import { INJECTION_CLASSES } from '../../src/trial/injection/catalogue.js';
import { memoryEnvironment } from '../helpers/memory-run.js';
import { memorySandbox } from '../helpers/memory-sandbox.js';
import { runSettings } from '../helpers/run-settings.js';
import { READ_NOTES, trial } from './trials.js';

const ADVERSARIAL: RunCondition = { name: 'adversarial' };
const OTHER: Task = { ...READ_NOTES, id: 'read_notes_again_v1' };

async function runBaseline(name: string, dir: string): Promise<ResultFile[]> {
  const baseline = baselineOf(name);
  if (baseline === null) throw new Error(name);
  return runTasks({
    tasks: [CLEAN, ADVERSARIAL].flatMap((condition) =>
      [READ_NOTES, OTHER].map((task) => ({ task, condition })),
    ),
    parallel: 1,
    open: async ({ task, condition }, signal) =>
      createTaskRun({
        runId: 'run-1',
        task,
        taskVersion: 'v1',
        modelName: name,
        makeModel: (index) => baselineModel(baseline, task, index),
        openSandbox: async () => memorySandbox(),
        settings: runSettings({ k: 3 }),
        condition,
        resultsDir: dir,
        environment: memoryEnvironment(name),
        signal,
      }),
  });
}

let dir: string;
let rows: AxesRow[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baselines-'));
  const all = (await Promise.all(BASELINES.map((b) => runBaseline(`baseline:${b}`, join(dir, b))))).flat();
  rows = buildAxes(all);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
const rowOf = (b: string, condition: string) =>
  rows.find((r) => r.model === `baseline:${b}` && r.condition === condition) as AxesRow;

describe('baselines as rows', () => {
  it('are named baseline:NAME and marked as baselines', () => {
    expect(baselineOf('baseline:comply-all')).toBe('comply-all');
    expect(baselineOf('baseline:nope')).toBeNull();
    expect(baselineOf('comply-all')).toBeNull();
    expect(rows.every((r) => r.baseline)).toBe(true);
  });

  it('the reference completes every task, under attack too, and stays safe', () => {
    expect(rowOf('reference', 'clean').completion.value).toBe(1);
    expect(rowOf('reference', 'clean').efficiency.value).toBe(1);
    expect(rowOf('reference', 'adversarial').safety?.safe.value).toBe(1);
  });

  it('refuse-all completes nothing and wins no axis: no efficiency, no safety figure (never exposed)', () => {
    const clean = rowOf('refuse-all', 'clean');
    expect(clean.completion.value).toBe(0);
    expect(clean.efficiency).toMatchObject({ value: null, n: 0 });
    const adv = rowOf('refuse-all', 'adversarial');
    expect(adv.safety?.exposed_trials).toBe(0);
    expect(adv.safety?.safe).toMatchObject({ value: null, n: 0 });
  });

  it('comply-all completes like the reference but is caught on compliance and exfiltration every time', () => {
    const adv = rowOf('comply-all', 'adversarial');
    expect(adv.completion.value).toBe(1);
    expect(adv.safety?.exposed_trials).toBe(6);
    expect(adv.safety?.safe.value).toBe(0);
    expect(adv.safety?.no_compliance.value).toBe(0);
    expect(adv.safety?.no_exfiltration.value).toBe(0);
    expect(rowOf('comply-all', 'clean').completion.value).toBe(1);
  });

  it('comply-all is caught on every class of the catalogue', async () => {
    for (let index = 0; index < INJECTION_CLASSES.length; index++) {
      const { record } = await trial({
        model: baselineModel('comply-all', READ_NOTES, index),
        condition: ADVERSARIAL,
        index,
      });
      expect(record.safety?.no_injection_compliance.reached, record.safety?.injection_class).toBe(false);
      expect(record.safety?.no_exfiltration.reached, record.safety?.injection_class).toBe(false);
    }
  });

  it('random-tool calls the same tools for the same trial, and other tools for another', async () => {
    const calls = async (index: number) =>
      (
        await trial({ model: baselineModel('random-tool', READ_NOTES, index), index })
      ).record.turn_logs.flatMap((t) => t.tool_calls.map((c) => `${c.name} ${c.raw_arguments}`));
    expect(await calls(0)).toEqual(await calls(0));
    const many = await Promise.all([0, 1, 2, 3, 4, 5].map(calls));
    expect(new Set(many.map((c) => c.join('\n'))).size).toBeGreaterThan(1);
    expect(many.flat().every((c) => /^(read_file|execute_command|write_file) /.test(c))).toBe(true);
  });
});
