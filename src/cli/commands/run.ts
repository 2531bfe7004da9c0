/** `agent-bench run`: options in, results files out. */

import { loadFlagCode } from '../../catalogue/native/flag-code.js';
import { BASELINE_MODEL } from '../../dialogue/baseline/baseline-model.js';
import type { TranscriptJudge } from '../../judge/grade.js';
import type { ToolCallMode } from '../../models/tool-call-mode.js';
import type { RunSettings } from '../../results/result-file.js';
import type { ParallelRequest } from '../../run/parallelism.js';
import { resolveJudgeModel, resolveUserModel } from '../../run/resolve-user.js';
import { runBench } from '../../run/run-bench.js';
import { unmeasuredNote } from '../../run/summary.js';
import { compareAb, formatAb } from '../../skills/ab.js';
import { type DialogueUserChoice, inContainer } from '../../tasks/types.js';
import { InfraError, UsageError } from '../../util/errors.js';
import { writableResultsDir } from '../results-dir.js';
import {
  modelAccess,
  runConditions,
  runSettings,
  type SettingsCliOptions,
  shardPlan,
  variantChoice,
} from '../run-options.js';
import { type Split, selectWithSkills } from '../select-tasks.js';

/** As commander parses them; option-table/ declares each (its types check the table against this). */
export interface RunCliOptions extends SettingsCliOptions {
  model?: string;
  tasks: string;
  task?: string;
  baseUrl?: string;
  /** Skill folders (repeatable `--skill-dir`), one task each. */
  skillDir?: string[];
  /** Task folders (repeatable `--tasks-dir`). */
  tasksDir?: string[];
  /** `--split dev|holdout|all`. */
  split?: Split;
  /** Harbor tasks' Dockerfiles built on this local image (`--base-image`). */
  baseImage?: string;
  /** Run each skill task with and without its skill, and compare. */
  skillAb?: boolean;
  /** Trials at once; `auto`: the server's slot count. */
  parallel: ParallelRequest;
  /** `--conditions`, `--failure-rate` and the --injection-* options. */
  conditions: string;
  failureRate: number;
  injectionSite: string;
  injectionRate: number;
  injectionClasses: string;
  injectionSeed: number;
  statusFile?: string;
  /** Dialogue tasks: the model playing the user, and its server. */
  userModel?: string;
  userBaseUrl?: string;
  /** The transcript judge's model, and its server. */
  judgeModel?: string;
  judgeBaseUrl?: string;
  /** `--tool-calls native|text|both` (default both). */
  toolCalls?: ToolCallMode;
}

export async function runCommand(o: RunCliOptions): Promise<void> {
  const settings = runSettings(o);
  const conditions = runConditions(o);
  const skillAb = o.skillAb === true;
  const tasks = selectWithSkills({
    tasks: o.task ?? o.tasks,
    skillDirs: o.skillDir ?? [],
    skillAb,
    tasksDirs: o.tasksDir ?? [],
    ...(o.split === undefined ? {} : { split: o.split }),
    ...(o.baseImage === undefined ? {} : { baseImage: o.baseImage }),
  });
  if (o.baseImage !== undefined && !tasks.some((t) => inContainer(t) && t.environment.image !== undefined))
    throw new UsageError(
      '--base-image builds Harbor tasks on another image: give their folder with --tasks-dir',
    );
  await loadFlagCode(tasks);
  if (o.model === BASELINE_MODEL && tasks.some(inContainer))
    throw new UsageError(
      `--model ${BASELINE_MODEL} plays dialogue tasks only: select them, e.g. --tasks 'helpdesk_*'`,
    );
  const variants = variantChoice(o);
  const shard = shardPlan(o, tasks, settings, conditions, variants);
  // Before the model is probed and any container starts.
  const resultsDir = writableResultsDir(o.resultsDir);
  const dialogueUser = await userModel(o, settings);
  const judge = await judgeModel(o, settings);
  const results = await runBench({
    tasks,
    ...(dialogueUser === null ? {} : { dialogueUser }),
    ...(judge === null ? {} : { judge }),
    settings,
    resultsDir,
    resume: o.resume,
    parallel: o.parallel,
    conditions,
    variants,
    ...(shard === undefined ? {} : { shard }),
    ...(o.statusFile === undefined ? {} : { statusFile: o.statusFile }),
    model: {
      ...(o.model === undefined ? {} : { model: o.model }),
      ...(o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl }),
      ...modelAccess(o, settings),
      // The agent's channel only: a simulated user calls no tools.
      ...(settings.tool_calls === undefined ? {} : { toolCalls: settings.tool_calls }),
    },
  });
  if (skillAb) process.stdout.write(`\n${formatAb(compareAb(results))}\n`);
  const unmeasured = unmeasuredNote(results);
  if (unmeasured !== null) throw new InfraError(unmeasured);
}

/** `--judge-model` on its server (`--judge-base-url`, else the agent's `--base-url`), or null: no judge. */
async function judgeModel(o: RunCliOptions, settings: RunSettings): Promise<TranscriptJudge | null> {
  if (o.judgeModel === undefined) {
    if (o.judgeBaseUrl !== undefined) throw new UsageError('--judge-base-url needs --judge-model');
    return null;
  }
  const baseUrl = o.judgeBaseUrl ?? o.baseUrl;
  if (baseUrl === undefined) throw new UsageError('--judge-model needs --judge-base-url (or --base-url)');
  return resolveJudgeModel({ ...modelAccess(o, settings), model: o.judgeModel, baseUrl });
}

/** `--user-model` on its server (`--user-base-url`, else the agent's `--base-url`), or null: scripted users. */
async function userModel(o: RunCliOptions, settings: RunSettings): Promise<DialogueUserChoice | null> {
  if (o.userModel === undefined) {
    if (o.userBaseUrl !== undefined) throw new UsageError('--user-base-url needs --user-model');
    return null;
  }
  const baseUrl = o.userBaseUrl ?? o.baseUrl;
  if (baseUrl === undefined) throw new UsageError('--user-model needs --user-base-url (or --base-url)');
  return resolveUserModel({ ...modelAccess(o, settings), model: o.userModel, baseUrl });
}
