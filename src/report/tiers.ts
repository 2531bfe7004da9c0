/**
 * Model tiers, derived from flags over the suite tasks each model ran (pure: results in, rows out). A
 * task a model did not run (no result, an unfinished newest run, only harness errors) is not judged:
 * never a failure, and said once as "3/16 tasks run". Models are ordered against each other only within
 * one comparison key (k and early stop): pass^k at k=1 is not pass^k at k=5, and an early-stopped run's
 * rates come from fewer trials.
 */

import { comparisonKey } from '../results/comparison.js';
import type { ResultFile } from '../results/result-file.js';
import type { TrialRecord } from '../results/trial.js';
import { cellKey, newestPerCell, sortedUnique } from './load.js';

export type Tier = 1 | 2 | 3 | 4;

export interface ModelTier {
  model: string;
  /** null: no suite task run (see reasons). */
  tier: Tier | null;
  reasons: string[];
  /** Σ over the tasks run of the mean agent time of the trials that reached the outcome; null if a task has none. */
  totalClearTimeSec: number | null;
  /** Tasks passed pass^k (of tasksRun). */
  tasksPassed: number;
  /** Suite tasks with a complete newest run holding at least one trial that was not a harness error. */
  tasksRun: number;
  suiteSize: number;
  /** Tasks whose outcome was reached in most trials although pass^k failed (process flags dropped). */
  outcomeOnlyTasks: string[];
  /** Share of trials with at least one valid tool call (harness-error trials left out); null with no trials. */
  validToolCallRate: number | null;
  /** False when any result used was run with non-default settings. */
  comparable: boolean;
  /**
   * The k and early stop setting of every result used ("k=5", "k=5, early stop"), or "mixed: ..." when
   * they differ between tasks. Rows are compared (ordered, tabled together) only within one comparison.
   */
  comparison: string;
}

export const TIER_NAMES: Readonly<Record<Tier, string>> = {
  1: 'full discipline',
  2: 'outcome-capable',
  3: 'drives tools but misses outcomes',
  4: 'cannot drive tools',
};

export const TIER_DEFINITIONS = [
  'Tiers come from the newest result per (task, model), over the suite (every task any model has results for, or the tasks given), judged on the tasks each model ran: a task without a result, whose newest run did not complete, or whose trials were all harness errors is not run, never a failure ("3/16 tasks run" in the notes).',
  'Tier 1, full discipline: every task run passes pass^k (every trial reached every flag, process and outcome, untampered).',
  'Tier 2, outcome-capable: not tier 1, but in more than half the trials of every task run all outcome flags were reached untampered; process flags were dropped (e.g. a fix without ever observing the failure).',
  "Tier 3, drives tools but misses outcomes: a valid (executed, not refused) tool call in at least half the trials, but some task's outcome missed in most of its trials; the notes name the tasks.",
  'Tier 4, cannot drive tools: a valid tool call in fewer than half the trials (none at all, or only calls refused as unknown tools or bad arguments), so the agent loop does not run.',
  'No tier: the model ran no suite task.',
  'Harness-error trials are left out of every rate. A task without outcome flags counts a trial as reaching its outcome only when it passes.',
  'Clear time: per task, the mean agent time (model + tools, not harness) of the trials that reached the outcome untampered, summed over the tasks run. A mean, so k and early stop do not change it. Within a tier, more tasks run first, then faster first.',
  'Models are compared only with models whose results were all run at the same k and early stop setting (one table each): pass^k at k=1 is not pass^k at k=5, and an early-stopped run (--early-stop) has its rates from the trials up to its first failure. A model whose tasks were run at different settings ("mixed") is compared only with models run at the same settings task by task.',
].join('\n');

export function computeTiers(results: readonly ResultFile[], suiteTaskIds?: readonly string[]): ModelTier[] {
  const newest = newestPerCell(results, (r) => r);
  const suite = suiteTaskIds === undefined ? sortedUnique(results.map((r) => r.task_id)) : [...suiteTaskIds];
  const models = sortedUnique(results.map((r) => r.model));
  return models
    .map((model) => tierOf(model, suite, (task) => newest.get(cellKey(task, model))))
    .sort(byComparisonThenTier);
}

function tierOf(
  model: string,
  suite: string[],
  resultFor: (task: string) => ResultFile | undefined,
): ModelTier {
  const trialsOf = (r: ResultFile | undefined): TrialRecord[] =>
    (r?.trials ?? []).filter((t) => t.status !== 'error');
  const present = suite.flatMap((task) => {
    const result = resultFor(task);
    return result === undefined ? [] : [{ task, result }];
  });
  // Unfinished runs are said by task (they are worth a re-run); tasks never run only by count.
  const unfinished = present.flatMap(({ task, result }) => {
    if (result.status !== 'complete') return [`not judged: the newest run of ${task} is ${result.status}`];
    if (trialsOf(result).length === 0) return [`not judged: every trial of ${task} was a harness error`];
    return [];
  });
  const used = present.filter(({ result }) => isJudged(result));
  const all = used.flatMap((u) => trialsOf(u.result));
  const rate = all.length === 0 ? null : all.filter(droveTools).length / all.length;

  const reasons: string[] = [];
  if (used.length < suite.length) reasons.push(tasksRunNote(used.length, suite.length));
  reasons.push(...unfinished);
  const settings = settingsOf(used);
  if (settings.mixed !== null) reasons.push(`results at different settings: ${settings.mixed}`);
  const early = used.flatMap((u) =>
    u.result.early_stopped ? [`${u.task} (${u.result.trials_run} of k=${u.result.k} trials)`] : [],
  );
  if (early.length > 0) reasons.push(`early-stopped: ${early.join(', ')}`);
  const nonComparable = sortedUnique(
    used.flatMap((u) => (u.result.comparable === false ? u.result.non_comparable_reasons : [])),
  );
  if (nonComparable.length > 0) reasons.push(`non-comparable settings: ${nonComparable.join(', ')}`);
  const tampered = all.filter((t) => t.tamper_detected).length;
  if (tampered > 0) reasons.push(`tampering in ${tampered} trial(s)`);

  const passed = used.filter((u) => u.result.pass_all_k && u.result.tamper_detected_count === 0);
  const outcomeMissed = used.filter((u) => !mostly(trialsOf(u.result), reachedOutcome)).map((u) => u.task);
  const outcomeOnly = used
    .filter((u) => !passed.includes(u) && !outcomeMissed.includes(u.task))
    .map((u) => u.task);
  const clearTimes = used.map((u) =>
    mean(
      trialsOf(u.result)
        .filter(reachedOutcome)
        .map((t) => t.elapsed_sec),
    ),
  );
  const base = {
    model,
    tasksPassed: passed.length,
    tasksRun: used.length,
    suiteSize: suite.length,
    outcomeOnlyTasks: outcomeOnly,
    validToolCallRate: rate,
    comparable: nonComparable.length === 0,
    comparison: settings.comparison,
    totalClearTimeSec:
      used.length === 0 || clearTimes.some((t) => t === null) ? null : round3(sum(clearTimes as number[])),
  };
  if (used.length === 0) return { ...base, tier: null, reasons };

  if (passed.length === used.length) return { ...base, tier: 1, reasons };
  // Tier 4 against tier 3 is told apart by the tool-call evidence alone: a model whose calls mostly
  // never execute (none made, or only refused ones) cannot run the agent loop at all, whatever the
  // tasks; one that does drive tools and still misses an outcome failed at the work itself.
  if (rate === null || rate < 0.5) {
    reasons.unshift(`valid tool call in ${percent(rate)} of trials`);
    return { ...base, tier: 4, reasons };
  }
  if (outcomeMissed.length === 0) {
    reasons.unshift(
      ...outcomeOnly.map((task) => `${task}: outcome reached, not pass^k (${droppedFlags(resultFor(task))})`),
    );
    return { ...base, tier: 2, reasons };
  }
  reasons.unshift(`misses the outcome in most trials of: ${outcomeMissed.join(', ')}`);
  return { ...base, tier: 3, reasons };
}

/** A task counts as run by a model when its newest run completed with a trial that was no harness error. */
export function isJudged(r: ResultFile): boolean {
  return r.status === 'complete' && r.trials.some((t) => t.status !== 'error');
}

/** "3/16 tasks run": said once per model, only when it ran part of the suite. */
export function tasksRunNote(run: number, suite: number): string {
  return `${run}/${suite} tasks run`;
}

/** The comparison key shared by every result used, or "mixed: k=1 (a); k=3 (b, c)" and that detail. */
function settingsOf(used: readonly { task: string; result: ResultFile }[]): {
  comparison: string;
  mixed: string | null;
} {
  const keyed = used.map((u) => ({ task: u.task, key: comparisonKey(u.result) }));
  const keys = [...new Set(keyed.map((x) => x.key))].sort(byKey);
  if (keys.length <= 1) return { comparison: keys[0] ?? 'no results', mixed: null };
  const mixed = keys
    .map(
      (key) =>
        `${key} (${keyed
          .filter((x) => x.key === key)
          .map((x) => x.task)
          .join(', ')})`,
    )
    .join('; ');
  return { comparison: `mixed: ${mixed}`, mixed };
}

/** "k=3" before "k=3, early stop" before "k=10"; mixed ones after every single setting. */
function byKey(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** At least one tool call that was executed, not refused. */
function droveTools(t: TrialRecord): boolean {
  return t.turn_logs.some((turn) => turn.tool_calls.some((c) => c.invalid === null));
}

function reachedOutcome(t: TrialRecord): boolean {
  if (t.tamper_detected) return false;
  const outcome = Object.values(t.flags).filter((f) => f.kind === 'outcome');
  return outcome.length === 0 ? t.passed : outcome.every((f) => f.reached);
}

/** True in more than half of the trials (false with none). */
function mostly(trials: TrialRecord[], test: (t: TrialRecord) => boolean): boolean {
  return trials.length > 0 && trials.filter(test).length * 2 > trials.length;
}

function droppedFlags(r: ResultFile | undefined): string {
  const dropped = Object.entries(r?.skills ?? {})
    .filter(([, s]) => s.kind === 'process' && s.reach_rate < 1)
    .map(([id, s]) => `${id} ${percent(s.reach_rate)}`);
  return dropped.length === 0
    ? 'every process flag reached; outcome missed in some trial'
    : `process flags: ${dropped.join(', ')}`;
}

function byComparisonThenTier(a: ModelTier, b: ModelTier): number {
  const comparison = byKey(a.comparison, b.comparison);
  if (comparison !== 0) return comparison;
  const tier = (a.tier ?? 5) - (b.tier ?? 5);
  if (tier !== 0) return tier;
  // A model judged on fewer tasks has less time summed: the one that ran more comes first.
  if (a.tasksRun !== b.tasksRun) return b.tasksRun - a.tasksRun;
  const ta = a.totalClearTimeSec ?? Number.POSITIVE_INFINITY;
  const tb = b.totalClearTimeSec ?? Number.POSITIVE_INFINITY;
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.model.localeCompare(b.model);
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]): number | null => (xs.length === 0 ? null : sum(xs) / xs.length);
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const percent = (x: number | null): string => (x === null ? '?' : `${Math.round(x * 100)}%`);
