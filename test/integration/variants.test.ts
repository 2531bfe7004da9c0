/**
 * Variant tasks through the real sandbox: every trial runs a fresh instance drawn by the task's
 * generator, the same seed draws the same instances, and a solution remembered from one instance
 * fails the outcome flags of another (the memorization check). `validate --variants 3` proves each
 * variant task on three instances in the whole-suite validate (test/proofs/validate.test.ts).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTask } from '../../src/catalogue/built-in.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { instanceSource } from '../../src/tasks/variants/instances.js';
import { ofKind } from '../helpers/task-variants.js';
import { builtIn, draftSecondTrial, oracleRun as oracle, replayOnOther } from './oracle-run.js';

const TASKS = ['debug_python_v1'];
const dirs: string[] = [];
const earlierCache = process.env.AGENT_BENCH_CACHE;

beforeAll(async () => {
  // A cache of its own: the first run draws every instance through the generator.
  const cache = await mkdtemp(join(tmpdir(), 'agent-bench-variants-cache-'));
  dirs.push(cache);
  process.env.AGENT_BENCH_CACHE = cache;
});

afterAll(async () => {
  if (earlierCache === undefined) delete process.env.AGENT_BENCH_CACHE;
  else process.env.AGENT_BENCH_CACHE = earlierCache;
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** The results folder of each oracle run, by its result. */
const runDirs = new Map<ResultFile, string>();

async function oracleRun(taskId: string, seed: number): Promise<ResultFile> {
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-variants-'));
  dirs.push(resultsDir);
  const result = await oracle(builtIn(taskId), { resultsDir, seed });
  runDirs.set(result, resultsDir);
  return result;
}

describe.sequential('variant tasks', () => {
  const firstRuns = new Map<string, ResultFile>();

  it.each(TASKS)('%s: --model oracle --k 3 runs three different instances and passes all', async (id) => {
    const result = await oracleRun(id, 1);
    firstRuns.set(id, result);
    expect(result.trials.map((t) => t.status)).toEqual(['passed', 'passed', 'passed']);
    const variants = result.trials.map((t) => t.variant);
    expect(new Set(variants).size).toBe(3);
    expect(result.settings.variant_seed).toBe(1);
  });

  it.each(TASKS)('%s: the same seed draws the same instances', async (id) => {
    const again = await oracleRun(id, 1);
    expect(again.trials.map((t) => t.variant)).toEqual(firstRuns.get(id)?.trials.map((t) => t.variant));
  });

  it.each(TASKS)(
    "%s: instance A's reference solution replayed on instance B fails the outcome flags",
    async (id) => {
      const [a, b] = firstRuns.get(id)?.trials.map((t) => t.variant) ?? [];
      if (a === undefined || b === undefined) throw new Error('no instances');
      const { own, memorized, task } = await replayOnOther(builtIn(id), a, b);
      expect(own.status).toBe('passed');
      const outcomes = task.flags.filter((f) => f.kind === 'outcome').map((f) => f.id);
      expect(outcomes.length).toBeGreaterThan(0);
      expect(outcomes.some((f) => memorized.flags[f]?.reached === false)).toBe(true);
      expect(memorized.status).toBe('failed');
    },
  );

  it.each(TASKS)('%s: task from-trial drafts the instance the trial ran, not the folder’s', async (id) => {
    const result = firstRuns.get(id);
    const resultsDir = result === undefined ? undefined : runDirs.get(result);
    if (result === undefined || resultsDir === undefined) throw new Error('no first run');
    const draft = join(await mkdtemp(join(tmpdir(), 'agent-bench-draft-')), 'draft');
    dirs.push(dirname(draft));
    const variant = await draftSecondTrial(result, resultsDir, draft);
    const base = getTask(id);
    if (base?.kind !== 'sandbox') throw new Error(`${id} is no sandbox task`);
    const instance = ofKind(
      await instanceSource().instance(base, variant, () => {
        throw new Error('the instance should be cached by the run');
      }),
      'sandbox',
    );
    for (const f of instance.files)
      expect(await readFile(join(draft, 'files', f.path), 'utf8'), f.path).toBe(f.content);
    expect(instance.files.some((f) => base.files.find((g) => g.path === f.path)?.content !== f.content)).toBe(
      true,
    );
    expect(await readFile(join(draft, 'TODO.md'), 'utf8')).toContain(`instance \`${variant}\``);
  });
});
