/**
 * `agent-bench export atif RESULT_FILE`: a results file's trials as Harbor trajectories (ATIF,
 * src/report/atif.ts). `--trial N` prints that trial's trajectory; `--out DIR` writes every trial
 * as a Harbor trial folder, `DIR/<task>__<trial>/` with agent/trajectory.json, verifier/reward.txt
 * and result.json (src/report/harbor-trial.ts).
 */

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SYSTEM_PROMPT } from '../../agent/system-prompt.js';
import { type TrialOpening, trialTrajectory } from '../../report/atif.js';
import { harborTrialResult, trialReward } from '../../report/harbor-trial.js';
import { fileNamePart } from '../../results/layout.js';
import type { ResultFile } from '../../results/result-file.js';
import { readResultFile } from '../../results/store.js';
import type { TrialRecord } from '../../results/trial.js';
import { inContainer } from '../../tasks/types.js';
import { taskVersion } from '../../tasks/version.js';
import { writeFileAtomic } from '../../util/atomic-write.js';
import { UsageError } from '../../util/errors.js';
import { HARNESS_VERSION } from '../../util/version.js';
import { taskOfResult } from '../select-tasks.js';

export interface ExportAtifOptions {
  trial?: number;
  out?: string;
  /** `--tasks-dir`: where the trial's task is, when it is not a built-in one (for its prompt). */
  tasksDir?: string[];
}

interface Output {
  write(text: string): unknown;
}

export async function exportAtifCommand(
  file: string,
  o: ExportAtifOptions,
  out: Output = process.stdout,
): Promise<void> {
  if ((o.trial === undefined) === (o.out === undefined))
    throw new UsageError(
      'export atif needs either --trial N (print one trajectory) or --out DIR (write every trial)',
    );
  const parsed = await readResultFile(file);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.reason}`);
  const result = parsed.result;
  const opening = openingOf(result, o.tasksDir ?? []);
  if (o.trial !== undefined) {
    // Trials are numbered from 1 on the command line, as the CLI prints them (the file keeps 0-based indexes).
    const trial = result.trials.find((t) => t.index === (o.trial ?? 0) - 1);
    if (trial === undefined)
      throw new UsageError(
        `${file} has no trial ${o.trial}; its trials: ${result.trials.map((t) => t.index + 1).join(', ') || 'none'}`,
      );
    out.write(`${JSON.stringify(trialTrajectory(result, trial, opening), null, 2)}\n`);
    return;
  }
  const dir = o.out ?? '';
  for (const trial of result.trials) {
    // The task id is the file's word, not ours: one safe name part, so no id writes outside DIR.
    const name = `${fileNamePart(result.task_id)}__${trial.index + 1}`;
    await writeTrialFolder(join(dir, name), result, trial, name, opening);
  }
  out.write(`${result.trials.length} trial folders written under ${dir}\n`);
}

/**
 * A trial as Harbor lays one out: agent/trajectory.json, verifier/reward.txt (none for a trial
 * that was not measured: Harbor writes no reward when its trial fails to run) and result.json.
 */
async function writeTrialFolder(
  at: string,
  result: ResultFile,
  trial: TrialRecord,
  name: string,
  opening: TrialOpening | null,
): Promise<void> {
  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  await mkdir(join(at, 'agent'), { recursive: true });
  await writeFileAtomic(join(at, 'agent', 'trajectory.json'), json(trialTrajectory(result, trial, opening)));
  const reward = trialReward(trial);
  if (reward !== null) {
    await mkdir(join(at, 'verifier'), { recursive: true });
    await writeFileAtomic(join(at, 'verifier', 'reward.txt'), `${reward}\n`);
  }
  await writeFileAtomic(join(at, 'result.json'), json(harborTrialResult(result, trial, name)));
}

/**
 * The prompts the trial's model was shown, when this agent-bench can know them exactly: the same
 * harness version (its system prompt) and the task, found here at the version the trial ran. A
 * dialogue task's conversation opens with its user, whose turns are in the trajectory already.
 */
function openingOf(result: ResultFile, tasksDirs: string[]): TrialOpening | null {
  if (result.environment.harness_version !== HARNESS_VERSION) return null;
  const task = taskOfResult(result.task_id, tasksDirs);
  if ('unknown' in task || !inContainer(task) || taskVersion(task) !== result.task_version) return null;
  return { system: SYSTEM_PROMPT, prompt: task.prompt };
}
