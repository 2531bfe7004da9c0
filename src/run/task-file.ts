/**
 * The results file of one task while its trials run: the trials in index order (whatever order they
 * finished in), the status, and the file rewritten after every change, one write at a time (two
 * trials that finish together must not race to write it, nor land an older version last).
 */
import { CLEAN, type RunCondition } from '../results/condition.js';
import type {
  Environment,
  ResultFile,
  ResultStatus,
  RunSettings,
  ShardRecord,
} from '../results/result-file.js';
import { withHash, writeResultFile } from '../results/store.js';
import type { TrialRecord } from '../results/trial.js';
import type { Task } from '../tasks/types.js';
import { errorMessage } from '../util/errors.js';
import { summarize, unmeasuredReasons } from './aggregate.js';
import { RunStoppedError } from './run-stopped.js';
import { nonComparableReasons } from './settings.js';

export interface TaskFileOptions {
  runId: string;
  task: Task;
  taskVersion: string;
  modelName: string;
  settings: RunSettings;
  /** What the trials run under (default clean); written into the file, part of its identity. */
  condition?: RunCondition;
  resultsDir: string;
  environment: Environment;
  /** Continue this earlier, unfinished result instead of starting anew. */
  resumeFrom?: ResultFile;
  /** The shard's part of the task (`--shard`): its trials only, and which run it is part of. */
  shard?: ShardRecord;
  /** How a results file is written (default writeResultFile); tests make it fail. */
  writeResult?: (dir: string, result: ResultFile) => Promise<string>;
}

export interface TaskFile {
  /** Every trial recorded, resumed ones included, in index order. */
  trials(): readonly TrialRecord[];
  add(trial: TrialRecord): void;
  status(): ResultStatus;
  /** Ends a `running` file with this status (and why); a file that has ended keeps its status. */
  end(status: Exclude<ResultStatus, 'running'>, error?: string | null): void;
  /** Writes the file as it is now. Throws RunStoppedError when it cannot be written (the run stops). */
  save(): Promise<void>;
  /** save() for a file that is already saved or past saving: a second failure must not hide the first. */
  saveQuietly(): Promise<void>;
  /** The file as it is now (what the next save writes). */
  result(): ResultFile;
  /** Where it is written ('' before the first write). */
  path(): string;
}

export function openTaskFile(o: TaskFileOptions): TaskFile {
  const { task } = o;
  const trials: TrialRecord[] = [...(o.resumeFrom?.trials ?? [])];
  const runId = o.resumeFrom?.run_id ?? o.runId;
  const startedAt = o.resumeFrom?.started_at ?? new Date().toISOString();
  const write = o.writeResult ?? writeResultFile;
  let status: ResultStatus = 'running';
  let error: string | null = null;
  let path = '';
  /** Trials the file on disk holds in full. */
  const written = new Set<number>();
  /** Set once a write failed: the file keeps what keepWhatWasWritten could write, and no more. */
  let broken = false;
  let lastWrite: Promise<void> = Promise.resolve();

  const ordered = (): TrialRecord[] => [...trials].sort((a, b) => a.index - b.index);
  const build = (list: readonly TrialRecord[]): ResultFile =>
    buildResultFile(o, { runId, startedAt, status, error }, list);

  const writeNow = async (): Promise<void> => {
    if (broken) return;
    const list = ordered();
    try {
      path = await write(o.resultsDir, build(list));
      for (const t of list) written.add(t.index);
    } catch (err) {
      throw await keepWhatWasWritten(err);
    }
  };
  /**
   * Building, hashing or writing the file failed (a full disk; a record too large to serialize): the
   * file is rewritten marked `error`, with the trials written before in full and the newer ones
   * without their turn logs, and the run stops.
   */
  const keepWhatWasWritten = async (err: unknown): Promise<RunStoppedError> => {
    broken = true;
    status = 'error';
    error = `the results file could not be written: ${errorMessage(err)}`.replace(/\s+/g, ' ');
    const kept = ordered().map((t) =>
      written.has(t.index) ? t : { ...t, turn_logs: [], final_answer: null },
    );
    let result: ResultFile | null = null;
    try {
      result = build(kept);
      path = await write(o.resultsDir, result);
    } catch {
      // Nothing more can be done here: the file keeps what was last written.
    }
    const where = path === '' ? '' : ` (what was recorded is in ${path})`;
    return new RunStoppedError(`${task.id}: ${error}${where}`, result === null ? [] : [result], {
      cause: err,
    });
  };

  const save = (): Promise<void> => {
    const next = lastWrite.then(writeNow);
    lastWrite = next.catch(() => {});
    return next;
  };

  return {
    trials: ordered,
    add: (trial) => {
      trials.push(trial);
    },
    status: () => status,
    end: (s, why = null) => {
      if (status !== 'running') return;
      status = s;
      error = why;
    },
    save,
    saveQuietly: () => save().catch(() => {}),
    result: () => build(ordered()),
    path: () => path,
  };
}

/** The file for these trials (in index order), its numbers summed up and hashed. */
function buildResultFile(
  o: TaskFileOptions,
  now: { runId: string; startedAt: string; status: ResultStatus; error: string | null },
  list: readonly TrialRecord[],
): ResultFile {
  const { task, settings, shard } = o;
  const reasons = [
    ...nonComparableReasons(settings),
    ...unmeasuredReasons(settings.k, list),
    ...(shard === undefined ? [] : [shardReason(shard, settings.k)]),
  ];
  return withHash({
    run_id: now.runId,
    task_id: task.id,
    task_version: o.taskVersion,
    model: o.modelName,
    condition: o.condition ?? CLEAN,
    // Efficiency needs a real optimum: a task that declares none gets no efficiency.
    ...(Number.isInteger(task.meta.optimalSteps) && task.meta.optimalSteps >= 1
      ? { optimal_steps: task.meta.optimalSteps }
      : {}),
    status: now.status,
    k: settings.k,
    early_stopped: settings.early_stop && now.status === 'complete' && list.length < settings.k,
    container_reuse: !settings.fresh_container,
    ...summarize(task, settings.k, list),
    comparable: reasons.length === 0,
    non_comparable_reasons: reasons,
    settings,
    started_at: now.startedAt,
    updated_at: new Date().toISOString(),
    error: now.error,
    environment: o.environment,
    ...(task.source?.skill === undefined ? {} : { skill_digest: task.source.skill }),
    ...(shard === undefined ? {} : { shard }),
    trials: [...list],
  });
}

/** A shard's numbers come from its share of the trials: the whole is the merge of every shard's. */
function shardReason(shard: ShardRecord, k: number): string {
  return `shard ${shard.index}/${shard.count} of run ${shard.group}: ${shard.trials.length} of k=${k} trials (agent-bench results merge joins the shards)`;
}
