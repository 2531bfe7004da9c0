/** Oracle runs through runBench, quietly, for the variant tests: k trials of each task, drawn by a variant choice. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { getTask } from '../../src/catalogue/built-in.js';
import { taskFromTrialCommand } from '../../src/cli/commands/task.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { runBench } from '../../src/run/run-bench.js';
import type { VariantChoice } from '../../src/run/trial-instances.js';
import type { Task } from '../../src/tasks/types.js';
import { runSettings } from '../helpers/run-settings.js';

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
