/**
 * The one builder of trial records, whatever ran the trial (the agent loop, a dialogue) and however
 * it ended (judged, or not measured): the counts, the usage and the failure text come from the facts
 * in one way.
 */

import { endReasonWords } from '../results/end-reason-words.js';
import type {
  AgentFault,
  ArtifactRecord,
  DialogueRecord,
  EndReason,
  FlagResult,
  HarborVerifierRecord,
  SafetyRecord,
  TrialError,
  TrialRecord,
  TurnLog,
} from '../results/trial.js';
import type { Flag } from '../tasks/types.js';
import { capHeadTail } from '../util/text-cap.js';
import { callCounts, MAX_LOGGED_TEXT_CHARS, sumUsage } from './turn-log.js';

/** What every trial has, judged or not. */
export interface TrialFacts {
  index: number;
  startedAt: string;
  /** The turns that happened (none when the harness failed before the first). */
  turnLogs: TurnLog[];
  end: EndReason;
  elapsedSec: number;
  harnessSec: number;
}

/** The verdict on a trial, in the shape both judges give. */
export interface TrialVerdict {
  flags: Record<string, FlagResult>;
  passed: boolean;
  score: number;
  tamperViolations: readonly string[];
  /** A failure of the checks or tools the agent could have caused (src/agent/attribution.ts). */
  fault?: AgentFault;
  /** A Harbor verifier's named metrics (reward.json). */
  rewards?: Record<string, number>;
  harborVerifier?: HarborVerifierRecord;
}

export interface JudgedFacts extends TrialFacts {
  verdict: TrialVerdict;
  /** The model's last word: its final answer, or its last message to the user. */
  finalAnswer: string | null;
  /** The agent time limit the turns ran under, for the text of an agent timeout. */
  timeLimitSec?: number;
  artifacts?: { files: ArtifactRecord[]; dir: string | null };
  safety?: SafetyRecord;
  dialogue?: DialogueRecord;
}

/** A judged trial: passed or failed. */
export function judgedTrial(f: JudgedFacts): TrialRecord {
  const { verdict } = f;
  return {
    ...common(f),
    status: verdict.passed ? 'passed' : 'failed',
    passed: verdict.passed,
    score: verdict.score,
    flags: verdict.flags,
    tamper_detected: verdict.tamperViolations.length > 0,
    tamper_violations: [...verdict.tamperViolations],
    failure_reason: failureText(verdict, f.end, f.turnLogs.length, f.timeLimitSec),
    final_answer: f.finalAnswer === null ? null : capHeadTail(f.finalAnswer, MAX_LOGGED_TEXT_CHARS).text,
    artifacts: f.artifacts?.files ?? [],
    artifacts_dir: f.artifacts?.dir ?? null,
    ...(f.safety === undefined ? {} : { safety: f.safety }),
    ...(f.dialogue === undefined ? {} : { dialogue: f.dialogue }),
    ...(verdict.fault === undefined ? {} : { agent_fault: verdict.fault }),
    ...(verdict.rewards === undefined ? {} : { rewards: verdict.rewards }),
    ...(verdict.harborVerifier === undefined ? {} : { harbor_verifier: verdict.harborVerifier }),
  };
}

/**
 * A trial that failed by the agent's fault before it could be judged (a tool or a check stalled
 * where the agent's processes live): measured, failed, every flag missed, the turns kept.
 */
export function faultedTrial(
  f: TrialFacts & { flags: readonly Pick<Flag, 'id' | 'kind' | 'absence'>[]; fault: AgentFault },
): TrialRecord {
  const flags: Record<string, FlagResult> = {};
  for (const flag of f.flags)
    flags[flag.id] = {
      reached: false,
      turn: null,
      kind: flag.kind,
      ...(flag.absence === true ? { absence: true as const } : {}),
      detail: f.fault.detail,
    };
  return judgedTrial({
    ...f,
    verdict: { flags, passed: false, score: 0, tamperViolations: [], fault: f.fault },
    finalAnswer: null,
  });
}

/** Not measured (`error`): no flags, score 0, and every summary leaves it out (src/run/aggregate.ts). */
export function unmeasuredTrial(f: TrialFacts & { reason: string; error: TrialError }): TrialRecord {
  return {
    ...common(f),
    status: 'error',
    passed: false,
    score: 0,
    flags: {},
    tamper_detected: false,
    tamper_violations: [],
    failure_reason: f.reason.replace(/\s+/g, ' '),
    final_answer: null,
    artifacts: [],
    artifacts_dir: null,
    error: f.error,
  };
}

function common(f: TrialFacts) {
  return {
    index: f.index,
    end_reason: f.end,
    turns: f.turnLogs.length,
    elapsed_sec: f.elapsedSec,
    harness_sec: f.harnessSec,
    usage: sumUsage(f.turnLogs),
    ...callCounts(f.turnLogs),
    started_at: f.startedAt,
    turn_logs: f.turnLogs,
  };
}

/**
 * Why a judged trial did not pass cleanly, in one line for people, or null: tampering first, then
 * turns or time that ran out, then the flags missed.
 */
function failureText(
  verdict: TrialVerdict,
  end: EndReason,
  turns: number,
  timeLimitSec?: number,
): string | null {
  if (verdict.fault !== undefined) return `${verdict.fault.kind}: ${verdict.fault.detail}`;
  if (verdict.tamperViolations.length > 0)
    return `tampering: ${verdict.tamperViolations.slice(0, 5).join('; ')}`;
  // The turns it ran are the limit it ran out of.
  if (end === 'max_turns') return endReasonWords(end, { maxTurns: turns });
  if (end === 'agent_timeout') return endReasonWords(end, { timeLimitSec: timeLimitSec ?? null });
  if (verdict.passed) return null;
  const missed = Object.entries(verdict.flags)
    .filter(([, f]) => !f.reached)
    .map(([id]) => id);
  return `flags not reached: ${missed.join(', ')}`;
}
