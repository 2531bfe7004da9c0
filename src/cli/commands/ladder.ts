/** `agent-bench ladder`: options in; the smallest model that passes, a table, and the results files out. */

import { loadFlagCode } from '../../catalogue/native/flag-code.js';
import type { CandidateSource } from '../../ladder/candidates.js';
import { runLadder } from '../../ladder/run-ladder.js';
import { parseCacheTypes, parseCtxList, type RungConfig, rungConfigs } from '../../ladder/rung-config.js';
import type { SequentialRule } from '../../ladder/sequential-rule.js';
import { suiteLabel } from '../../ladder/verdict.js';
import { writeLadderChart } from '../../report/ladder-chart-file.js';
import type { ParallelRequest } from '../../run/parallelism.js';
import { UsageError } from '../../util/errors.js';
import { writableResultsDir } from '../results-dir.js';
import {
  modelAccess,
  runSettings,
  type SettingsCliOptions,
  shardPlan,
  variantChoice,
} from '../run-options.js';
import { type Split, selectWithSkills } from '../select-tasks.js';

/** As commander parses them; option-table/ declares each (its types check the table against this). */
export interface LadderCliOptions extends SettingsCliOptions {
  tasks: string;
  models?: string;
  modelsFromServer: boolean;
  ggufDir?: string;
  baseUrl?: string;
  serverCmd?: string;
  /** `--ctx 4096,8192` and `--cache-type f16,q8_0`: rungs are every file × context × cache type. */
  ctx?: string;
  cacheType?: string;
  /** Seconds. */
  serverStartTimeout: number;
  exhaustive: boolean;
  /** Skill folders (repeatable `--skill-dir`), one task each. */
  skillDir?: string[];
  /** Task folders (repeatable `--tasks-dir`). */
  tasksDir?: string[];
  /** `--split dev|holdout|all`. */
  split?: Split;
  /** Harbor tasks' Dockerfiles built on this local image (`--base-image`). */
  baseImage?: string;
  target?: number;
  confidence?: number;
  maxK?: number;
  parallel: ParallelRequest;
}

const DEFAULT_CONFIDENCE = 0.9;
const DEFAULT_MAX_K = 30;

export async function ladderCommand(o: LadderCliOptions): Promise<void> {
  const sequential = sequentialRule(o);
  const configs = configsOf(o);
  // A sequential rung's results files hold up to --max-k trials per task, however many it needed.
  const settings = { ...runSettings(o), ...(sequential === undefined ? {} : { k: sequential.maxK }) };
  const skillDirs = o.skillDir ?? [];
  const tasksDirs = o.tasksDir ?? [];
  const tasks = selectWithSkills({
    tasks: o.tasks,
    skillDirs,
    skillAb: false,
    tasksDirs,
    ...(o.split === undefined ? {} : { split: o.split }),
    ...(o.baseImage === undefined ? {} : { baseImage: o.baseImage }),
  });
  await loadFlagCode(tasks);
  const variants = variantChoice(o);
  const shard = shardPlan(o, tasks, settings, undefined, variants);
  // Before any server is asked or started.
  const resultsDir = writableResultsDir(o.resultsDir);
  const outcome = await runLadder({
    tasks,
    suite: suiteLabel(
      tasks.map((t) => t.id),
      o.tasks.trim() === 'all' && skillDirs.length === 0 && tasksDirs.length === 0,
    ),
    source: candidateSource(o),
    ...(o.serverCmd === undefined ? {} : { serverCmd: o.serverCmd }),
    ...(configs === undefined ? {} : { configs }),
    serverStartTimeoutMs: o.serverStartTimeout * 1000,
    settings,
    resultsDir,
    resume: o.resume,
    exhaustive: o.exhaustive,
    request: modelAccess(o, settings),
    ...(shard === undefined ? {} : { shard }),
    ...(sequential === undefined ? {} : { sequential }),
    parallel: o.parallel,
    variants,
  });
  // The picture of what the summary holds; a ladder that ran is not failed by its chart.
  const chart = await writeLadderChart(outcome.summaryPath);
  process.stderr.write(
    `${'path' in chart ? `ladder chart: ${chart.path}` : `no ladder chart: ${chart.problem}`}\n`,
  );
}

/** `--target` below 1 makes the ladder sequential; at 1 (or absent) it is pass^k as ever. */
function sequentialRule(o: LadderCliOptions): SequentialRule | undefined {
  if (o.target === undefined || o.target === 1) {
    if (o.confidence !== undefined || o.maxK !== undefined)
      throw new UsageError('--confidence and --max-k go with --target below 1 (a sequential ladder)');
    return undefined;
  }
  if (o.k !== 1)
    throw new UsageError('--k does not go with --target: each rung runs up to --max-k trials per task');
  if (o.earlyStop)
    throw new UsageError('--early-stop does not go with --target: a rung stops when its bound decides');
  return { target: o.target, confidence: o.confidence ?? DEFAULT_CONFIDENCE, maxK: o.maxK ?? DEFAULT_MAX_K };
}

/** Absent when neither --ctx nor --cache-type was given: one rung per file, as ever. */
function configsOf(o: LadderCliOptions): RungConfig[] | undefined {
  if (o.ctx === undefined && o.cacheType === undefined) return undefined;
  return rungConfigs(
    o.ctx === undefined ? [] : parseCtxList(o.ctx),
    o.cacheType === undefined ? [] : parseCacheTypes(o.cacheType),
  );
}

function candidateSource(o: LadderCliOptions): CandidateSource {
  const given = [o.models !== undefined, o.modelsFromServer, o.ggufDir !== undefined].filter((g) => g);
  if (given.length !== 1) {
    throw new UsageError(
      'choose the models with one of --models a,b,c, --models-from-server or --gguf-dir DIR',
    );
  }
  if (o.ggufDir !== undefined) {
    if (o.baseUrl !== undefined) {
      throw new UsageError(
        '--base-url does not go with --gguf-dir: GGUF files run in-process, or on --server-cmd',
      );
    }
    return { kind: 'gguf-dir', dir: o.ggufDir };
  }
  const baseUrl = o.baseUrl === undefined ? {} : { baseUrl: o.baseUrl };
  if (o.models === undefined) return { kind: 'server', models: 'all', ...baseUrl };
  const models = o.models
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  if (models.length === 0) throw new UsageError('--models needs at least one model name');
  return { kind: 'server', models, ...baseUrl };
}
