/**
 * `agent-bench export atif RESULT_FILE`: a results file's trials as Harbor trajectories (ATIF,
 * src/report/atif.ts). `--trial N` prints that trial's trajectory; `--out DIR` writes every trial's
 * where Harbor keeps one, `DIR/<task>__<trial>/agent/trajectory.json`.
 */

import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SYSTEM_PROMPT } from '../../agent/system-prompt.js';
import { type TrialOpening, trialTrajectory } from '../../report/atif.js';
import { fileNamePart } from '../../results/layout.js';
import type { ResultFile } from '../../results/result-file.js';
import { readResultFile } from '../../results/store.js';
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
    const at = join(dir, `${fileNamePart(result.task_id)}__${trial.index + 1}`, 'agent');
    await mkdir(at, { recursive: true });
    await writeFileAtomic(
      join(at, 'trajectory.json'),
      `${JSON.stringify(trialTrajectory(result, trial, opening), null, 2)}\n`,
    );
  }
  out.write(`${result.trials.length} trajectories written under ${dir}\n`);
}

/**
 * The prompts the trial's model was shown, when this agent-bench can know them exactly: the same
 * harness version (its system prompt) and the task, found here at the version the trial ran. A
 * dialogue task's conversation opens with its user, whose turns are in the trajectory already.
 */
function openingOf(result: ResultFile, tasksDirs: string[]): TrialOpening | null {
  if (result.environment.harness_version !== HARNESS_VERSION) return null;
  const task = taskOfResult(result.task_id, tasksDirs);
  if ('unknown' in task || task.kind === 'dialogue' || taskVersion(task) !== result.task_version) return null;
  return { system: SYSTEM_PROMPT, prompt: task.prompt };
}
