/** `agent-bench run`: options in, results files out. */
import { resolve } from 'node:path';
import { runBench } from '../../run/run-bench.js';
import { compareAb, formatAb } from '../../skills/ab.js';
import { modelAccess, runSettings, type SettingsCliOptions } from '../run-options.js';
import { selectWithSkills } from '../select-tasks.js';

export interface RunCliOptions extends SettingsCliOptions {
  model?: string;
  tasks: string;
  task?: string;
  baseUrl?: string;
  resultsDir: string;
  resume: boolean;
  /** Skill folders (repeatable `--skill-dir`), one task each. */
  skillDir?: string[];
  /** Run each skill task with and without its skill, and compare. */
  skillAb?: boolean;
}

export async function runCommand(o: RunCliOptions): Promise<void> {
  const settings = runSettings(o);
  const skillAb = o.skillAb === true;
  const tasks = selectWithSkills({ tasks: o.task ?? o.tasks, skillDirs: o.skillDir ?? [], skillAb });
  const results = await runBench({
    tasks,
    settings,
    resultsDir: resolve(o.resultsDir),
    resume: o.resume,
    model: {
      ...(o.model === undefined ? {} : { model: o.model }),
      ...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
      ...modelAccess(o, settings),
    },
  });
  if (skillAb) process.stdout.write(`\n${formatAb(compareAb(results))}\n`);
}
