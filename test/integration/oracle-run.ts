/**
 * Helpers of the variant tests: oracle runs through runBench, quietly (k trials of each task, drawn
 * by a variant choice), the memorization replay, and from-trial drafts.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { getTask } from '../../src/catalogue/built-in.js';
import { taskFromTrialCommand } from '../../src/cli/commands/task.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import type { ResultFile } from '../../src/results/result-file.js';
import type { TrialRecord } from '../../src/results/trial.js';
import { runBench } from '../../src/run/run-bench.js';
import { DEFAULT_LIMITS, DISPATCH_LIMITS } from '../../src/run/settings.js';
import type { VariantChoice } from '../../src/run/trial-instances.js';
import { createDockerSandbox, ensureImage } from '../../src/sandbox/index.js';
import type { SandboxTask, Task } from '../../src/tasks/types.js';
import { instanceSource } from '../../src/tasks/variants/instances.js';
import { runSettings } from '../helpers/run-settings.js';
import { ofKind } from '../helpers/task-variants.js';
import { runWorkspaceTrial as runTrial } from '../helpers/workspace-trial.js';

export async function oracleRun(
  task: Task,
  o: { resultsDir: string; seed?: number; k?: number },
): Promise<ResultFile> {
  const [result] = await oracleRuns([task], { ...o, variants: { seed: o.seed ?? 1 } });
  if (result === undefined) throw new Error(`no result for ${task.id}`);
  return result;
}

export function oracleRuns(
  tasks: Task[],
  o: { resultsDir: string; variants: VariantChoice; k?: number },
): Promise<ResultFile[]> {
  const settings = runSettings({ k: o.k ?? 3, early_stop: false });
  return runBench({
    tasks,
    settings,
    resultsDir: o.resultsDir,
    resume: false,
    variants: o.variants,
    model: {
      model: 'oracle',
      apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
      sampling: settings.sampling,
      requestTimeoutMs: 30_000,
      retries: 0,
    },
    stdout: { write: () => true },
    stderr: { write: () => true, isTTY: false },
    handleSignals: false,
  });
}

export function builtIn(id: string): Task {
  const task = getTask(id);
  if (task === undefined) throw new Error(`${id} missing`);
  return task;
}

/**
 * `task from-trial` on trial 2 of the run whose results are in `resultsDir`, drafted as `draft`
 * (a path that does not exist yet); returns the instance id that trial ran.
 */
export async function draftSecondTrial(
  result: ResultFile,
  resultsDir: string,
  draft: string,
): Promise<string> {
  const variant = result.trials[1]?.variant;
  const file = (await readdir(resultsDir)).find((f) => f.endsWith('.json'));
  if (variant === undefined || file === undefined) throw new Error(`no second trial in ${resultsDir}`);
  await taskFromTrialCommand(join(resultsDir, file), draft, { trial: 2 }, { write: () => true });
  return variant;
}

/**
 * The memorization check's two runs on instance `b` of a variant sandbox task, in one sandbox: b's own
 * reference solution, then instance `a`'s replayed verbatim (what a model that remembered a's
 * transcript would send), with b's flags to judge it.
 */
export async function replayOnOther(
  base: Task,
  a: string,
  b: string,
): Promise<{ own: TrialRecord; memorized: TrialRecord; task: SandboxTask }> {
  if (base.kind !== 'sandbox') throw new Error(`${base.id} is no sandbox task`);
  const image = await ensureImage();
  const sandbox = await createDockerSandbox({
    image: image.tag,
    limits: DEFAULT_LIMITS,
    labels: { run: 'variants-replay-test' },
  });
  try {
    const source = instanceSource();
    const open = async () => sandbox;
    const instanceA = ofKind(await source.instance(base, a, open), 'sandbox');
    const instanceB = ofKind(await source.instance(base, b, open), 'sandbox');
    const replay = (script: SandboxTask['referenceSolution']) =>
      runTrial({
        index: 0,
        task: instanceB,
        model: createScriptedModel('memorized', script),
        sandbox,
        maxTurns: instanceB.maxTurns,
        limits: { ...DISPATCH_LIMITS, commandTimeoutMs: 60_000 },
      });
    const own = await replay(instanceB.referenceSolution);
    await sandbox.reset();
    const memorized = await replay(instanceA.referenceSolution);
    return { own, memorized, task: instanceB };
  } finally {
    await sandbox.dispose();
  }
}
