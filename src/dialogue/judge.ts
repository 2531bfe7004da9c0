/**
 * Judges a conversation on the environment's final state: each flag's check (helpdesk/checks.ts),
 * reached on the turn of the call that reached it, then scored like every task's flags (absences
 * credited only with an outcome reached: an agent that does nothing earns nothing).
 */
import type { FlagResult } from '../results/trial.js';
import { creditAbsences, scoreTrial } from '../scoring/score.js';
import { checkKind, runCheck } from './helpdesk/checks.js';
import type { DeskState } from './helpdesk/state.js';
import type { ScenarioFile } from './scenario.js';

export interface DialogueVerdict {
  flags: Record<string, FlagResult>;
  passed: boolean;
  score: number;
}

/** `calls`: every call that ran, in order (the i-th is step i), with its turn. */
export function judgeScenario(
  file: ScenarioFile,
  state: DeskState,
  calls: readonly { turn: number; name: string; arguments: Record<string, unknown>; ok: boolean }[],
): DialogueVerdict {
  const meta = file.flags.map((f) => ({ id: f.id, ...kindOf(f.check) }));
  const results: Record<string, FlagResult> = {};
  for (const flag of file.flags) {
    const { kind } = checkKind(flag.check);
    const outcome = runCheck(flag.check, state, calls);
    results[flag.id] = outcome.reached
      ? { reached: true, turn: outcome.step === null ? null : (calls[outcome.step]?.turn ?? null), kind }
      : { reached: false, turn: null, kind, detail: outcome.detail };
  }
  const flags = creditAbsences(meta, results);
  return { flags, ...scoreTrial(meta, flags, false) };
}

/** A check's kind in the shape the scoring core reads. */
function kindOf(check: Parameters<typeof checkKind>[0]): {
  kind: 'process' | 'outcome';
  absence?: true;
} {
  const k = checkKind(check);
  return k.absence ? { kind: k.kind, absence: true } : { kind: k.kind };
}
