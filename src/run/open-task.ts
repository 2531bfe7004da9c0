/**
 * Opening one task of a run under one condition: find what --resume can continue, tell progress how
 * many trials are left, and make the task run (or hand back a result that is complete already).
 */

import type { TranscriptJudge } from '../judge/grade.js';
import { taskLabel } from '../results/condition.js';
import type { Environment, ResultFile, RunSettings } from '../results/result-file.js';
import type { SimulatedUserRecord } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import type { DialogueUserChoice, Task } from '../tasks/types.js';
import { DEFAULT_VARIANT_SEED } from '../tasks/variants/instance-seed.js';
import { type InstanceSource, instanceSource } from '../tasks/variants/instances.js';
import { taskVersion } from '../tasks/version.js';
import type { openEventLog } from './event-log.js';
import type { Progress } from './progress.js';
import type { ResolvedModel } from './resolve-model.js';
import { findResumable } from './resume.js';
import type { RunUnit } from './run-plan.js';
import { createTaskRun, type TaskRun } from './run-task.js';
import type { ShardPlan } from './shard-plan.js';
import { trialInstances, type VariantChoice } from './trial-instances.js';

export interface TaskOpening {
  runId: string;
  settings: RunSettings;
  resultsDir: string;
  resume: boolean;
  shard?: ShardPlan;
  dialogueUser?: DialogueUserChoice;
  judge?: TranscriptJudge;
  /** BenchOptions.trialsUpTo. */
  trialsUpTo?: number;
  model: Pick<ResolvedModel, 'name' | 'forTrial'>;
  environment: Environment;
  openSandbox: (task: Task) => Promise<Sandbox>;
  progress: Progress;
  logEvent: ReturnType<typeof openEventLog>;
  /** How variant tasks draw their trials' instances (default: the fixed seed, instances cached on this machine). */
  variants?: VariantChoice;
  instanceSource?: InstanceSource;
}

/** The `open` of runTasks: a task run, or the earlier result when --resume finds it complete. */
export function taskOpener(c: TaskOpening) {
  const userRecord: SimulatedUserRecord =
    c.dialogueUser?.kind === 'llm' ? c.dialogueUser.record : { kind: 'scripted' };
  return async (
    { task, condition, position }: RunUnit<Task>,
    signal: AbortSignal,
  ): Promise<TaskRun | ResultFile> => {
    const version = taskVersion(task);
    const instances = trialInstances(
      task,
      version,
      c.variants ?? { seed: DEFAULT_VARIANT_SEED },
      c.instanceSource ?? instanceSource(),
    );
    // A variant task's settings say how its instances were drawn: a run with another seed is not resumed.
    const settings = instances === null ? c.settings : { ...c.settings, ...instances.settings };
    const shard = c.shard?.record(task.id) ?? undefined;
    // Progress and notes name a task with its condition: the same task runs once per condition.
    const label = taskLabel(task.id, condition);
    const { k } = c.settings;
    const upTo = Math.min(k, c.trialsUpTo ?? k);
    const resumeFrom = c.resume
      ? await findResumable(
          c.resultsDir,
          task.id,
          c.model.name,
          version,
          settings,
          condition,
          shard,
          userRecord,
        )
      : null;
    // A file a capped run left complete goes on when more of its trials are asked for.
    const more = c.trialsUpTo !== undefined && (resumeFrom?.trials.length ?? 0) < upTo;
    if (resumeFrom?.status === 'complete' && !more) {
      c.progress.note(
        `${label}: already complete in run ${resumeFrom.run_id} (${resumeFrom.trials.length}/${k} trials), skipped (--resume).`,
      );
      c.progress.taskOpened(label, 0);
      return resumeFrom;
    }
    if (c.resume) c.progress.note(resumeNote(label, k, resumeFrom));
    c.progress.taskOpened(label, (shard?.trials.length ?? upTo) - (resumeFrom?.trials.length ?? 0));
    return createTaskRun({
      runId: c.runId,
      task,
      taskVersion: version,
      modelName: c.model.name,
      makeModel: (index, trialTask) => c.model.forTrial(trialTask, index),
      openSandbox: (instance) => c.openSandbox(instance ?? task),
      ...(instances === null ? {} : { instances }),
      ...(c.dialogueUser === undefined ? {} : { dialogueUser: c.dialogueUser }),
      ...(c.judge === undefined ? {} : { judge: c.judge }),
      settings,
      condition,
      slot: { position, k },
      resultsDir: c.resultsDir,
      environment: c.environment,
      onEvent: (e) => {
        c.logEvent(c.runId, task.id, c.model.name, e);
        c.progress.event(label, e);
      },
      signal,
      ...(resumeFrom === null ? {} : { resumeFrom }),
      ...(shard === undefined ? {} : { shard }),
      ...(c.trialsUpTo === undefined ? {} : { trialsUpTo: upTo }),
    });
  };
}

/** What --resume found for a task: `run X, 2/5 trials done`, or nothing to continue. */
function resumeNote(taskId: string, k: number, from: ResultFile | null): string {
  if (from === null) return `${taskId}: no unfinished result with these settings to resume: starting anew.`;
  return `${taskId}: resuming run ${from.run_id} (${from.status}), ${from.trials.length}/${k} trials done (--resume).`;
}
