/** `agent-bench run`: options in, results files out. */
import type { ParallelRequest } from '../../run/parallelism.js';
import { runBench } from '../../run/run-bench.js';
import { unmeasuredNote } from '../../run/summary.js';
import { compareAb, formatAb } from '../../skills/ab.js';
import { InfraError } from '../../util/errors.js';
import { writableResultsDir } from '../results-dir.js';
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
  /** Trials at once; `auto`: the server's slot count. */
  parallel: ParallelRequest;
  statusFile?: string;
}

export async function runCommand(o: RunCliOptions): Promise<void> {
  const settings = runSettings(o);
  const skillAb = o.skillAb === true;
  const tasks = selectWithSkills({ tasks: o.task ?? o.tasks, skillDirs: o.skillDir ?? [], skillAb });
  // Before the model is probed and any container starts.
  const resultsDir = writableResultsDir(o.resultsDir);
  const results = await runBench({
    tasks,
    settings,
    resultsDir,
    resume: o.resume,
    parallel: o.parallel,
    ...(o.statusFile === undefined ? {} : { statusFile: o.statusFile }),
    model: {
      ...(o.model === undefined ? {} : { model: o.model }),
      ...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
      ...modelAccess(o, settings),
    },
  });
  if (skillAb) process.stdout.write(`\n${formatAb(compareAb(results))}\n`);
  const unmeasured = unmeasuredNote(results);
  if (unmeasured !== null) throw new InfraError(unmeasured);
}
