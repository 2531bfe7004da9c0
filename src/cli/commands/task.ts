/** `agent-bench task from-trial RESULT_FILE --trial N DIR`: a draft task folder from a trial (src/catalogue/native/from-trial.ts). */

import { draftable, isFreeFolder, writeDraftTask } from '../../catalogue/native/from-trial.js';
import { readResultFile } from '../../results/store.js';
import type { TrialRecord } from '../../results/trial.js';
import { DEFAULT_LIMITS } from '../../run/settings.js';
import { FOLDER_INSTANCE } from '../../run/trial-instances.js';
import { createDockerSandbox, ensureImage } from '../../sandbox/index.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { SandboxTask, SkillTask } from '../../tasks/types.js';
import { instanceSource } from '../../tasks/variants/instances.js';
import { taskVersion } from '../../tasks/version.js';
import { InternalError, UsageError } from '../../util/errors.js';
import { taskOfResult } from '../select-tasks.js';

export interface FromTrialOptions {
  /** 1-based, as the CLI prints trials. */
  trial: number;
  /** `--tasks-dir`: where the trial's task is, when it is not a built-in one. */
  tasksDir?: string[];
}

export async function taskFromTrialCommand(
  file: string,
  dir: string,
  o: FromTrialOptions,
  out: { write(text: string): unknown } = process.stdout,
): Promise<void> {
  const parsed = await readResultFile(file);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.reason}`);
  const result = parsed.result;
  const trial = result.trials.find((t) => t.index === o.trial - 1);
  if (trial === undefined)
    throw new UsageError(
      `${file} has no trial ${o.trial}; its trials: ${result.trials.map((t) => t.index + 1).join(', ') || 'none'}`,
    );
  if (trial.status === 'error')
    throw new UsageError(
      `trial ${o.trial} of ${file} was not measured (${trial.failure_reason}): nothing to draft from`,
    );
  const task = taskOfResult(result.task_id, o.tasksDir ?? []);
  if ('unknown' in task)
    throw new UsageError(
      `the trial's task ${result.task_id} is not known here (${task.unknown}); give its folder with --tasks-dir`,
    );
  const source = draftable(task);
  if ('refused' in source) throw new UsageError(source.refused);
  if (!isFreeFolder(dir)) throw new UsageError(`${dir} is not an empty folder: give a new one for the draft`);
  const version = taskVersion(task);
  if (version !== result.task_version)
    out.write(
      `note: ${task.id} has changed since the trial (version ${version}, the trial ran ${result.task_version}): the draft starts from the task as it is now\n`,
    );
  const written = writeDraftTask({ result, file, trial, task: await instanceOfTrial(source, trial) }, dir);
  out.write(
    `Draft task written to ${dir} (${written.length} files). Fill in what TODO.md lists, then: agent-bench validate --tasks-dir ${dir}\n`,
  );
}

/**
 * The instance a variant task's trial ran, so the draft starts where the trial did: the one this
 * machine cached when it ran the trial, else drawn again (the same id draws the same instance).
 */
async function instanceOfTrial(
  task: SandboxTask | SkillTask,
  trial: TrialRecord,
): Promise<SandboxTask | SkillTask> {
  const id = trial.variant;
  if (task.variants === undefined || id === undefined || id === FOLDER_INSTANCE) return task;
  let sandbox: Sandbox | null = null;
  try {
    const instance = await instanceSource().instance(task, id, async () => {
      const image = await ensureImage();
      sandbox = await createDockerSandbox({
        image: image.tag,
        limits: DEFAULT_LIMITS,
        labels: { run: 'from-trial' },
      });
      return sandbox;
    });
    // An instance is a task of its folder's format, so it drafts as the task did.
    const source = draftable(instance);
    if ('refused' in source) throw new InternalError(source.refused);
    return source;
  } finally {
    await (sandbox as Sandbox | null)?.dispose();
  }
}
