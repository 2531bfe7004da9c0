/**
 * Which instance each trial of a variant task runs: trial i's is drawn from (task, version,
 * --variant-seed, i), or every trial replays `--variant ID`. A task with one instance has none of
 * this, and its results say nothing of variants.
 */
import type { RunSettings } from '../results/result-file.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import { instanceSeed } from '../tasks/variants/instance-seed.js';
import type { InstanceSource } from '../tasks/variants/instances.js';

/** `--variant folder`: the instance the task's folder holds (the one `list` and `task export` show). */
export const FOLDER_INSTANCE = 'folder';

/** `run --variant-seed N` and `--variant ID`, as the run was asked. */
export interface VariantChoice {
  seed: number;
  /** Every trial of every variant task runs this instance. */
  replay?: string;
}

export interface TrialInstances {
  /** What the task's results record of the choice (its settings). */
  settings: Pick<RunSettings, 'variant_seed' | 'variant'>;
  /** Trial `index`'s instance id. */
  idOf(index: number): string;
  /** Trial `index`'s instance as a task of the task's kind, drawn in `sandbox` when not cached (one drawn in the harness needs none). */
  taskOf(index: number, sandbox: () => Promise<Sandbox>): Promise<Task>;
}

/** The instances of the task's trials, or null when the task has one instance. */
export function trialInstances(
  task: Task,
  version: string,
  choice: VariantChoice,
  source: InstanceSource,
): TrialInstances | null {
  if (task.variants === undefined) return null;
  if (choice.replay === FOLDER_INSTANCE)
    return {
      settings: { variant_seed: choice.seed, variant: FOLDER_INSTANCE },
      idOf: () => FOLDER_INSTANCE,
      taskOf: async () => task,
    };
  const idOf = (index: number): string =>
    choice.replay ??
    instanceSeed({ taskId: task.id, taskVersion: version, variantSeed: choice.seed, trialIndex: index });
  return {
    settings: {
      variant_seed: choice.seed,
      ...(choice.replay === undefined ? {} : { variant: choice.replay }),
    },
    idOf,
    taskOf: (index, sandbox) => source.instance(task, idOf(index), sandbox),
  };
}
