/** `agent-bench run`: options in, results files out. */
import { resolve } from 'node:path';
import { runBench } from '../../run/run-bench.js';
import { selectTasks } from '../../run/select-tasks.js';
import { modelAccess, runSettings, type SettingsCliOptions } from '../run-options.js';

export interface RunCliOptions extends SettingsCliOptions {
  model?: string;
  tasks: string;
  task?: string;
  baseUrl?: string;
  resultsDir: string;
  resume: boolean;
}

export async function runCommand(o: RunCliOptions): Promise<void> {
  const settings = runSettings(o);
  await runBench({
    tasks: selectTasks(o.task ?? o.tasks),
    settings,
    resultsDir: resolve(o.resultsDir),
    resume: o.resume,
    model: {
      ...(o.model === undefined ? {} : { model: o.model }),
      ...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
      ...modelAccess(o, settings),
    },
  });
}
