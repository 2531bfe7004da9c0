/**
 * A results file without its transcripts: every number the matrix, the radar and the dashboard's index
 * need, computed once when the file is read. Small enough to send thousands of them to a page.
 */

import { comparisonKey, trialBasis } from '../results/comparison.js';
import { conditionOf, type RunCondition } from '../results/condition.js';
import type { FlagSummary, ResultFile } from '../results/result-file.js';
import type { TrialRecord } from '../results/trial.js';
import { redactUrl } from '../util/redact-url.js';

/** Sums over the trials that passed (the efficiency and speed axes compare passing work only). */
interface PassedTotals {
  trials: number;
  turns: number;
  elapsed_sec: number;
  completion_tokens: number;
}

export interface ResultSummary {
  file: string;
  run_id: string;
  task_id: string;
  task_version: string;
  model: string;
  condition: RunCondition;
  status: ResultFile['status'];
  k: number;
  trials_run: number;
  passed_trials: number;
  early_stopped: boolean;
  /** The trials the score and the reach rates come from: "2 of k=5 trials, early-stopped". */
  score_basis: string;
  /** Results are compared only under the same key ("k=5", "k=5, early stop"). */
  comparison: string;
  pass_all_k: boolean;
  pass_hat_k: number | null;
  score: number;
  skills: Record<string, FlagSummary>;
  avg_turns: number;
  elapsed_sec: number;
  tamper_detected_count: number;
  invalid_tool_call_count: number;
  usage: ResultFile['usage'];
  comparable: boolean;
  non_comparable_reasons: string[];
  started_at: string;
  updated_at: string;
  error: string | null;
  /** Where the model was served from, without any credentials in the URL. */
  base_url: string | null;
  calls: { total: number; unknown_tool: number; bad_format: number };
  replies: number;
  malformed_replies: number;
  /** Trials that ended with a final answer (the model stopped by itself). */
  final_answers: number;
  passed: PassedTotals;
  /** noisy: measured trials in which an injected fault fired, and how many of them passed. */
  faulted: { trials: number; passed: number };
  /** adversarial: trials that reached the payload, and how many stayed safe (no compliance, no exfiltration). */
  exposed: { trials: number; safe: number };
  /** Dialogue tasks: the policy dimension, and who played the user ("scripted", "llm:<model>"). */
  dialogue: { dimension: string; user: string } | null;
  /**
   * `run --judge-model`: the judge's mean score over the trials it graded (null when it graded none
   * it could read), and how many it tried; null when no trial was judged. Never part of `score`.
   */
  judge: { model: string; mean_score: number | null; graded: number; tried: number } | null;
}

export function summarizeResult(file: string, r: ResultFile): ResultSummary {
  const trials = r.trials;
  const passed = trials.filter((t) => t.passed);
  const faulted = trials.filter(
    (t) =>
      t.status !== 'error' && t.turn_logs.some((turn) => turn.tool_calls.some((c) => c.fault !== undefined)),
  );
  const exposed = trials.filter((t) => t.status !== 'error' && (t.safety?.exposures ?? 0) > 0);
  return {
    file,
    run_id: r.run_id,
    task_id: r.task_id,
    task_version: r.task_version,
    model: r.model,
    condition: conditionOf(r),
    status: r.status,
    k: r.k,
    trials_run: r.trials_run,
    passed_trials: passed.length,
    early_stopped: r.early_stopped,
    score_basis: trialBasis(r),
    comparison: comparisonKey(r),
    pass_all_k: r.pass_all_k,
    pass_hat_k: r.pass_hat_k,
    score: r.score,
    skills: r.skills,
    avg_turns: r.avg_turns,
    elapsed_sec: r.elapsed_sec,
    tamper_detected_count: r.tamper_detected_count,
    invalid_tool_call_count: r.invalid_tool_call_count,
    usage: r.usage,
    comparable: r.comparable,
    non_comparable_reasons: r.non_comparable_reasons,
    started_at: r.started_at,
    updated_at: r.updated_at,
    error: r.error,
    base_url: withoutCredentials(r.environment?.base_url ?? null),
    calls: countCalls(trials),
    replies: sum(trials.map((t) => t.turns)),
    malformed_replies: sum(trials.map((t) => t.malformed_replies)),
    final_answers: trials.filter((t) => t.final_answer !== null).length,
    passed: {
      trials: passed.length,
      turns: sum(passed.map((t) => t.turns)),
      elapsed_sec: sum(passed.map((t) => t.elapsed_sec)),
      completion_tokens: sum(passed.map((t) => t.usage.completion_tokens)),
    },
    faulted: { trials: faulted.length, passed: faulted.filter((t) => t.passed).length },
    exposed: {
      trials: exposed.length,
      safe: exposed.filter(
        (t) => t.safety?.no_injection_compliance.reached && t.safety.no_exfiltration.reached,
      ).length,
    },
    dialogue: dialogueOf(trials),
    judge: judgeOf(trials),
  };
}

/** The judge's grades of a result's trials, by the judge's model (the newest trial's when several judged). */
function judgeOf(trials: readonly TrialRecord[]): ResultSummary['judge'] {
  const judged = trials.flatMap((t) => (t.judge === undefined ? [] : [t.judge]));
  const last = judged.at(-1);
  if (last === undefined) return null;
  const own = judged.filter((j) => j.model === last.model);
  const scores = own.flatMap((j) => (j.score === null ? [] : [j.score]));
  return {
    model: last.model,
    mean_score: scores.length === 0 ? null : Math.round((sum(scores) / scores.length) * 1000) / 1000,
    graded: scores.length,
    tried: own.length,
  };
}

function dialogueOf(trials: readonly TrialRecord[]): ResultSummary['dialogue'] {
  const d = trials.find((t) => t.dialogue !== undefined)?.dialogue;
  if (d === undefined) return null;
  return { dimension: d.dimension, user: d.user.kind === 'llm' ? `llm:${d.user.model}` : 'scripted' };
}

function countCalls(trials: readonly TrialRecord[]): ResultSummary['calls'] {
  const calls = { total: 0, unknown_tool: 0, bad_format: 0 };
  for (const trial of trials) {
    for (const turn of trial.turn_logs) {
      for (const call of turn.tool_calls) {
        calls.total++;
        if (call.invalid === 'unknown_tool') calls.unknown_tool++;
        else if (call.invalid !== null) calls.bad_format++;
      }
    }
  }
  return calls;
}

/** A base URL may carry user:password or a query key (older results files kept them); never shown with them. */
export function withoutCredentials(url: string | null): string | null {
  return url === null ? null : redactUrl(url);
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
