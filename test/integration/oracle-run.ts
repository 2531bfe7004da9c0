/** Oracle runs through runBench, quietly, for the variant tests: k trials of each task, drawn by a variant choice. */
import { getTask } from '../../src/catalogue/built-in.js';
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
