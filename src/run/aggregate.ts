/**
 * Summary fields of a results file, computed from its trials alone (pure). An `error` trial was not
 * measured: it is kept in the file but counted nowhere here (not in trials_run, the score, the reach
 * rates or pass^k), and it makes the result non-comparable.
 */

import type { FlagSummary, ResultFile } from '../results/result-file.js';
import type { TrialRecord } from '../results/trial.js';
import { passHatK } from '../scoring/stats.js';
import type { Flag } from '../tasks/types.js';

type Summary = Pick<
  ResultFile,
  | 'trials_run'
  | 'pass_all_k'
  | 'score'
  | 'pass_hat_k'
  | 'skills'
  | 'invalid_tool_call_count'
  | 'tamper_detected_count'
  | 'native_tool_calls'
  | 'text_tool_calls'
  | 'usage'
  | 'elapsed_sec'
  | 'avg_turns'
>;

/** The flags' ids and kinds are all it needs: a merge rebuilds them from the results files' `skills`. */
type FlagKinds = { flags: readonly Pick<Flag, 'id' | 'kind' | 'absence'>[] };

export function summarize(task: FlagKinds, k: number, all: readonly TrialRecord[]): Summary {
  const trials = all.filter((t) => t.status !== 'error');
  const n = trials.length;
  const passedCount = trials.filter((t) => t.passed).length;
  const skills: Record<string, FlagSummary> = {};
  for (const flag of task.flags) {
    const seen = trials.map((t) => t.flags[flag.id]).filter((f) => f !== undefined);
    const reachedTurns = seen.filter((f) => f.reached && f.turn !== null).map((f) => f.turn as number);
    skills[flag.id] = {
      kind: flag.kind,
      ...(flag.absence === true ? { absence: true } : {}),
      reach_rate: n === 0 ? 0 : round4(seen.filter((f) => f.reached).length / n),
      avg_turns: reachedTurns.length === 0 ? null : round2(mean(reachedTurns)),
    };
  }
  return {
    trials_run: n,
    pass_all_k: n === k && passedCount === k,
    score: n === 0 ? 0 : round4(mean(trials.map((t) => t.score))),
    pass_hat_k: passHatK(n, passedCount, k),
    skills,
    invalid_tool_call_count: sum(trials.map((t) => t.invalid_tool_call_count)),
    tamper_detected_count: trials.filter((t) => t.tamper_detected).length,
    native_tool_calls: sum(trials.map((t) => t.native_tool_calls)),
    text_tool_calls: sum(trials.map((t) => t.text_tool_calls)),
    usage: {
      prompt_tokens: sum(trials.map((t) => t.usage.prompt_tokens)),
      completion_tokens: sum(trials.map((t) => t.usage.completion_tokens)),
    },
    elapsed_sec: round3(sum(trials.map((t) => t.elapsed_sec))),
    avg_turns: n === 0 ? 0 : round2(mean(trials.map((t) => t.turns))),
  };
}

/** Why trials that were not measured keep a result from being compared: `2 of 5 trials not measured (context_overflow)`. */
export function unmeasuredReasons(k: number, trials: readonly TrialRecord[]): string[] {
  const errors = trials.filter((t) => t.status === 'error');
  if (errors.length === 0) return [];
  const kinds = [...new Set(errors.map((t) => t.error?.kind ?? 'harness'))];
  return [`${errors.length} of ${k} trials not measured (${kinds.join(', ')})`];
}

const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]): number => sum(xs) / xs.length;
const round2 = (x: number): number => Math.round(x * 100) / 100;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const round4 = (x: number): number => Math.round(x * 10000) / 10000;
