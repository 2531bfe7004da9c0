/**
 * `results merge` refuses shard files that do not belong together, each kind with its reason and
 * nothing written; takes one run of several with --run-group; and says what is missing when a shard
 * did not deliver. The shard files are real (two in-memory shard runs), then doctored and re-hashed
 * as another machine or another run would have written them.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsMergeCommand } from '../../src/cli/commands/results.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { readResultFiles, withHash } from '../../src/results/store.js';
import { planShard } from '../../src/run/shard-plan.js';
import { InfraError, UsageError } from '../../src/util/errors.js';
import { runSettings } from '../helpers/run-settings.js';
import { benchOn, quietRun, startMachine, task } from '../run/shard-bench.js';

const TASKS = [task('alpha'), task('beta')];
const settings = runSettings({ k: 2 });

let root: string;
/** Shard 1 and shard 2 of one run, as written. */
let original: string[];
let group: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'merge-check-'));
  original = [join(root, 'run-shard-1'), join(root, 'run-shard-2')];
  const machine = await startMachine({ models: ['m'], k: 2, plays: () => 'solve' });
  try {
    for (const [i, dir] of original.entries()) {
      const shard = planShard({ spec: { index: i + 1, count: 2 }, tasks: TASKS, settings });
      group = shard.group;
      await benchOn(machine, quietRun('m', dir, { tasks: TASKS, settings, shard }));
    }
  } finally {
    await machine.close();
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

let cases = 0;
/** Fresh copies of the two shard folders, and a folder to merge into. */
async function copies(): Promise<{ dirs: string[]; into: string }> {
  const base = join(root, `case-${++cases}`);
  const dirs = [join(base, 'shard-1'), join(base, 'shard-2')];
  for (const [i, dir] of dirs.entries()) await cp(original[i] as string, dir, { recursive: true });
  return { dirs, into: join(base, 'merged') };
}

/** The results files of a folder that hold `taskId`, rewritten by `change` and hashed again. */
async function doctor(
  dir: string,
  taskId: string | null,
  change: (r: ResultFile) => ResultFile,
): Promise<void> {
  for (const { path, result } of (await readResultFiles(dir)).results) {
    if (taskId !== null && result.task_id !== taskId) continue;
    const { result_hash: _h, schema_version: _v, ...rest } = change(result);
    await writeFile(path, JSON.stringify(withHash(rest)));
  }
}

async function merge(dirs: string[], into: string, runGroup?: string) {
  let err = '';
  const outcome = await resultsMergeCommand(
    dirs,
    { into, ...(runGroup === undefined ? {} : { runGroup }) },
    { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } },
  ).then(
    () => null,
    (e: unknown) => e,
  );
  return { outcome, err };
}

/** The merge refused: a usage error naming `reason`, the same line on stderr, and nothing written. */
async function expectRefusal(dirs: string[], into: string, reason: RegExp): Promise<void> {
  const { outcome, err } = await merge(dirs, into);
  expect(outcome).toBeInstanceOf(UsageError);
  expect((outcome as UsageError).message).toMatch(/^refusing to merge, nothing written: /);
  expect(
    err
      .split('\n')
      .filter((l) => l.startsWith('refused: '))
      .some((l) => reason.test(l)),
  ).toBe(true);
  expect(await readdir(into)).toEqual([]);
}

describe('results merge refuses files that do not belong together', () => {
  it('merges the two shards as they are', async () => {
    const { dirs, into } = await copies();
    const { outcome } = await merge(dirs, into);
    expect(outcome).toBeNull();
    const merged = (await readResultFiles(into)).results.map((f) => f.result);
    expect(merged.map((r) => [r.task_id, r.status, r.trials.map((t) => t.index), r.pass_all_k])).toEqual([
      ['alpha_v1', 'complete', [0, 1], true],
      ['beta_v1', 'complete', [0, 1], true],
    ]);
  });

  it('another task version', async () => {
    const { dirs, into } = await copies();
    await doctor(dirs[1] as string, 'alpha_v1', (r) => ({ ...r, task_version: 'edited0task0v2' }));
    await expectRefusal(
      dirs,
      into,
      /^refused: task alpha_v1: other task versions: [0-9a-f]{16} \(shard-1\/.*\) vs edited0task0v2 \(shard-2\/.*\)$/,
    );
  });

  it('other settings, saying which', async () => {
    const { dirs, into } = await copies();
    await doctor(dirs[1] as string, null, (r) => ({
      ...r,
      settings: { ...r.settings, sampling: { ...r.settings.sampling, temperature: 0.7 } },
    }));
    await expectRefusal(
      dirs,
      into,
      /^refused: other settings: sampling\.temperature 0 vs 0\.7: shard-1\/.* vs shard-2\//,
    );
  });

  it('other conditions', async () => {
    const ran = await copies();
    await doctor(ran.dirs[1] as string, null, (r) => ({
      ...r,
      condition: { name: 'adversarial' },
      shard: { ...(r.shard as NonNullable<ResultFile['shard']>), conditions: ['adversarial'] },
    }));
    await expectRefusal(
      ran.dirs,
      ran.into,
      /^refused: other conditions in the runs' shards: clean \(.*\) vs adversarial \(/,
    );
    // A file of a condition its run did not have.
    const stray = await copies();
    await doctor(stray.dirs[1] as string, 'beta_v1', (r) => ({ ...r, condition: { name: 'adversarial' } }));
    await expectRefusal(
      stray.dirs,
      stray.into,
      /\(shard 2\/2, task beta_v1\): its condition adversarial is not among its run's \(clean\)$/,
    );
  });

  it('another agent-bench', async () => {
    const { dirs, into } = await copies();
    await doctor(dirs[1] as string, null, (r) => ({
      ...r,
      environment: { ...r.environment, harness_version: '9.9.9' },
    }));
    await expectRefusal(dirs, into, /^refused: other agent-bench versions: .* vs 9\.9\.9 /);
  });

  it('another number of shards', async () => {
    const { dirs, into } = await copies();
    await doctor(dirs[1] as string, null, (r) => ({
      ...r,
      shard: { ...(r.shard as NonNullable<ResultFile['shard']>), count: 3 },
    }));
    await expectRefusal(dirs, into, /^refused: shard counts differ: 2 shards \(.*\) vs 3 shards \(/);
  });

  it('a shard run twice (a second run without --resume)', async () => {
    const { dirs, into } = await copies();
    const [file] = (await readdir(dirs[0] as string)).filter((n) => n.startsWith('alpha_v1__'));
    const again = JSON.parse(await readFile(join(dirs[0] as string, file as string), 'utf8')) as ResultFile;
    const { result_hash: _h, schema_version: _v, ...rest } = { ...again, run_id: 'another-run' };
    await writeFile(join(dirs[1] as string, 'alpha_v1__m__another-run.json'), JSON.stringify(withHash(rest)));
    await expectRefusal(
      dirs,
      into,
      /^refused: task alpha_v1, model m: shard 1\/2 ran it more than once \(.*run another-run.*\): keep one$/,
    );
  });

  it("a duplicate trial: a file holding another shard's trial", async () => {
    const { dirs, into } = await copies();
    const first = (await readResultFiles(dirs[0] as string)).results.find(
      (f) => f.result.task_id === 'alpha_v1',
    );
    const stolen = first?.result.trials[0];
    if (stolen === undefined) throw new Error('shard 1 has no trial of alpha');
    await doctor(dirs[1] as string, 'alpha_v1', (r) => ({ ...r, trials: [stolen, ...r.trials] }));
    const { err } = await merge(dirs, into);
    expect(err).toMatch(
      /^refused: task alpha_v1, model m: duplicate trial 1, in shard-1\/.* and shard-2\/.*$/m,
    );
    expect(err).toMatch(
      /^refused: .*shard-2\/.*\(shard 2\/2, task alpha_v1\): holds trial\(s\) 1, not the shard's$/m,
    );
    expect(await readdir(into)).toEqual([]);
  });

  it('shards of another run', async () => {
    const { dirs, into } = await copies();
    await doctor(dirs[1] as string, null, (r) => ({
      ...r,
      shard: { ...(r.shard as NonNullable<ResultFile['shard']>), group: 'other' },
    }));
    await expectRefusal(
      dirs,
      into,
      /^refused: shards of different runs .*: work-[0-9a-f]{12} \(.*\) vs other \(/,
    );
  });
});

describe('results merge, one run of several, and runs that are not whole', () => {
  it('--run-group merges one run and says what it left out', async () => {
    const { dirs, into } = await copies();
    const other = join(dirs[1] as string, '..', 'other-run');
    await cp(dirs[1] as string, other, { recursive: true });
    await doctor(other, null, (r) => ({
      ...r,
      run_id: `${r.run_id}-x`,
      shard: { ...(r.shard as NonNullable<ResultFile['shard']>), group: 'other' },
    }));
    const { outcome, err } = await merge([...dirs, other], into, group);
    expect(outcome).toBeNull();
    expect(err).toContain(`left out 2 shard file(s) of other runs than ${group}`);
    expect((await readResultFiles(into)).results).toHaveLength(2);
  });

  it('a missing shard leaves the merged files interrupted, saying which trials, and exits 3', async () => {
    const { dirs, into } = await copies();
    const { outcome, err } = await merge([dirs[0] as string], into);
    expect(outcome).toBeInstanceOf(InfraError);
    expect((outcome as InfraError).message).toMatch(
      /^the merged results are not whole: task alpha_v1, model m: shard 2\/2: no results \(trials 2\) \(and 1 more, above\); run what is missing/,
    );
    expect(err).toContain('not whole: task beta_v1, model m: shard 2/2: no results (trials 2)');
    const merged = (await readResultFiles(into)).results.map((f) => f.result);
    expect(merged.map((r) => [r.status, r.trials.length, r.pass_all_k, r.error])).toEqual([
      ['interrupted', 1, false, 'shard 2/2: no results (trials 2)'],
      ['interrupted', 1, false, 'shard 2/2: no results (trials 2)'],
    ]);
  });

  it('a hand-edited shard file is left out, said, and its trials are missing', async () => {
    const { dirs, into } = await copies();
    const [name] = (await readdir(dirs[1] as string)).filter((n) => n.startsWith('beta_v1__'));
    const path = join(dirs[1] as string, name as string);
    await writeFile(path, (await readFile(path, 'utf8')).replace('"score": 1', '"score": 0.5'));
    const { outcome, err } = await merge(dirs, into);
    expect(err).toMatch(/^skipped .*beta_v1__.*: content does not match its result_hash/m);
    expect(outcome).toBeInstanceOf(InfraError);
    expect((outcome as InfraError).message).toContain('task beta_v1, model m: shard 2/2: no results');
  });

  it('a task no shard has results of is missing from the merge', async () => {
    const { dirs, into } = await copies();
    for (const dir of dirs)
      for (const name of (await readdir(dir)).filter((n) => n.startsWith('beta_v1__')))
        await rm(join(dir, name));
    const { outcome } = await merge(dirs, into);
    expect((outcome as InfraError).message).toMatch(
      /not whole: task beta_v1, model m: no shard has results of it/,
    );
  });

  it('refuses folders without shard files, and folders that are not there', async () => {
    const empty = join(root, 'empty');
    await mkdir(empty, { recursive: true });
    const none = await merge([empty], join(root, 'into-none'));
    expect(none.outcome).toBeInstanceOf(UsageError);
    expect((none.outcome as UsageError).message).toMatch(
      /^no shard results in .*empty: merge takes the folders of runs with --shard i\/N$/,
    );
    const missing = await merge([join(root, 'no-such-folder')], join(root, 'into-missing'));
    expect((missing.outcome as UsageError).message).toMatch(/no-such-folder: cannot read it \(ENOENT\)$/);
  });
});
