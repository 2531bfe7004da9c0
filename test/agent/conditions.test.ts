/**
 * The condition as part of a result: written in every file, part of its name and of its cell, so
 * results of different conditions never mix; files written before conditions existed read as clean.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runConditions } from '../../src/cli/run-options.js';
import { newestPerCell } from '../../src/report/load.js';
import { CLEAN, conditionKey, conditionOf, type RunCondition } from '../../src/results/condition.js';
import { parseResultFile, readResultFiles, withHash } from '../../src/results/store.js';
import { findResumable } from '../../src/run/resume.js';
import { createTaskRun } from '../../src/run/run-task.js';
import { runTasks } from '../../src/run/run-tasks.js';
import { UsageError } from '../../src/util/errors.js';
import { canonicalJson, sha256 } from '../../src/util/hash.js';
import { memoryEnvironment } from '../helpers/memory-run.js';
import { memorySandbox } from '../helpers/memory-sandbox.js';
import { result } from '../helpers/result-builder.js';
import { runSettings } from '../helpers/run-settings.js';
import { noisy, READ_NOTES, recordingModel } from './trials.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conditions-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const settings = runSettings({ k: 2 });

function runUnder(conditions: RunCondition[]) {
  return runTasks({
    tasks: conditions.map((condition) => ({ task: READ_NOTES, condition })),
    parallel: 1,
    open: async ({ task, condition }, signal) =>
      createTaskRun({
        runId: 'run-1',
        task,
        taskVersion: 'v1',
        modelName: 'm',
        makeModel: () => recordingModel('m', READ_NOTES.referenceSolution),
        openSandbox: async () => memorySandbox(),
        settings,
        condition,
        resultsDir: dir,
        environment: memoryEnvironment('m'),
        signal,
      }),
  });
}

describe('the condition of a result', () => {
  it('is written in each file, and one run of several conditions writes one file per condition', async () => {
    const conditions: RunCondition[] = [CLEAN, noisy(1), { name: 'adversarial' }];
    const results = await runUnder(conditions);
    expect(results.map((r) => r.condition)).toEqual(conditions);
    const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
    expect(names).toHaveLength(3);
    expect(names).toContain('read_notes_v1__m__run-1.json');
    const read = (await readResultFiles(dir)).results.map((f) => f.result);
    expect(read.map((r) => conditionOf(r).name).sort()).toEqual(['adversarial', 'clean', 'noisy']);
    // Every call of the noisy run faulted, so its trials failed; the clean ones passed.
    const byName = new Map(read.map((r) => [conditionOf(r).name, r]));
    expect(byName.get('clean')?.pass_all_k).toBe(true);
    expect(byName.get('noisy')?.trials.every((t) => !t.passed)).toBe(true);
    expect(byName.get('adversarial')?.trials.every((t) => t.safety !== undefined)).toBe(true);
  });

  it('keeps results of other conditions out of a clean cell, and is resumed only under the same condition', async () => {
    await runUnder([noisy(1)]);
    const read = (await readResultFiles(dir)).results.map((f) => f.result);
    expect(newestPerCell(read, (r) => r).size).toBe(0);
    expect(newestPerCell(read, (r) => r, noisy(1)).size).toBe(1);
    expect(newestPerCell(read, (r) => r, noisy(0.5)).size).toBe(0);
    expect(await findResumable(dir, READ_NOTES.id, 'm', 'v1', settings, CLEAN)).toBeNull();
    expect((await findResumable(dir, READ_NOTES.id, 'm', 'v1', settings, noisy(1)))?.condition).toEqual(
      noisy(1),
    );
  });

  it('reads as clean in a file written before conditions existed (schema 2.2)', () => {
    const { result_hash: _, condition: __, ...rest } = result({ task: 'a', model: 'old', trials: [{}] });
    const older = { ...rest, schema_version: '2.2' };
    const parsed = parseResultFile(JSON.stringify({ ...older, result_hash: sha256(canonicalJson(older)) }));
    expect(parsed.ok && parsed.result.condition).toBeUndefined();
    expect(parsed.ok && conditionOf(parsed.result)).toEqual(CLEAN);
    expect(parsed.ok && newestPerCell([parsed.result], (r) => r).size).toBe(1);
    const unknown = parseResultFile(
      JSON.stringify(withHash({ ...rest, condition: { name: 'windy' } } as never)),
    );
    expect(unknown.ok).toBe(false);
  });
});

const INJECTION = { injectionSite: 'sampled', injectionRate: 0.5, injectionClasses: 'all', injectionSeed: 0 };

describe('--conditions', () => {
  it('takes the conditions in the order given, the failure rate for noisy, the injection options for adversarial', () => {
    expect(
      runConditions({ conditions: 'clean, noisy,adversarial,noisy', failureRate: 0.3, ...INJECTION }),
    ).toEqual([
      CLEAN,
      { name: 'noisy', failure_rate: 0.3, fault_timeout_sec: 10 },
      { name: 'adversarial', injection_site: 'sampled', injection_rate: 0.5 },
    ]);
  });

  it('refuses an unknown or empty list with a usage error', () => {
    const o = { failureRate: 0.2, ...INJECTION };
    expect(() => runConditions({ conditions: 'clean,windy', ...o })).toThrow(UsageError);
    expect(() => runConditions({ conditions: 'clean,windy', ...o })).toThrow(/"windy"/);
    expect(() => runConditions({ conditions: ' , ', ...o })).toThrow(UsageError);
  });

  it('takes the fixed site, a list of classes in catalogue order, a seed; refuses unknown ones in one line', () => {
    const adversarial = (o: Partial<typeof INJECTION>) =>
      runConditions({ conditions: 'adversarial', failureRate: 0.2, ...INJECTION, ...o })[0];
    expect(adversarial({ injectionSite: 'fixed', injectionClasses: 'role_play,direct_override' })).toEqual({
      name: 'adversarial',
      injection_site: 'fixed',
      injection_classes: ['direct_override', 'role_play'],
    });
    expect(adversarial({ injectionSeed: 7, injectionRate: 0.25 })).toMatchObject({
      injection_rate: 0.25,
      injection_seed: 7,
    });
    expect(() => adversarial({ injectionSite: 'everywhere' })).toThrow(
      /--injection-site: unknown site "everywhere"/,
    );
    expect(() => adversarial({ injectionClasses: 'direct_override,nope' })).toThrow(
      /--injection-classes: unknown class "nope" \(see agent-bench list --injections\)/,
    );
  });

  it('names each adversarial setting apart: its own cell and its own file', () => {
    expect(conditionKey({ name: 'adversarial' })).toBe('adversarial');
    expect(conditionKey({ name: 'adversarial', injection_site: 'sampled', injection_rate: 0.5 })).toBe(
      'adversarial@0.5',
    );
    expect(
      conditionKey({
        name: 'adversarial',
        injection_site: 'sampled',
        injection_rate: 0.5,
        injection_seed: 3,
        injection_classes: ['direct_override'],
      }),
    ).toBe('adversarial@0.5#3[direct_override]');
  });
});
