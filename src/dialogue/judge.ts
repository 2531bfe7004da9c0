/**
 * Judges a conversation: each of the scenario's flags (helpdesk/checks.ts) on the final state and
 * the conversation, reached on the turn of the call that reached it, and end_state, the whole final
 * state against the gold actions' (helpdesk/end-state.ts); then scored like every task's flags
 * (absences credited only with an outcome reached: an agent that does nothing earns nothing).
 */
import type { FlagResult, TurnLog } from '../results/trial.js';
import { creditAbsences, scoreTrial } from '../scoring/score.js';
import { type CheckOutcome, type Conversation, checkKind, runCheck } from './helpdesk/checks.js';
import { endStateCheck } from './helpdesk/end-state.js';
import type { DeskState } from './helpdesk/state.js';
import { WORD_FLAGS, type WordFlag, type WordRules, wordCheck } from './helpdesk/words.js';
import type { Scenario } from './pack.js';
import { END_STATE_FLAG } from './scenario.js';

export interface DialogueVerdict {
  flags: Record<string, FlagResult>;
  passed: boolean;
  score: number;
}

export function judgeScenario(
  scenario: Scenario,
  state: DeskState,
  conversation: Conversation,
  words: WordRules,
): DialogueVerdict {
  const wordFlags = Object.keys(WORD_FLAGS) as WordFlag[];
  const meta = [
    ...scenario.file.flags.map((f) => ({ id: f.id, ...kindOf(f.check) })),
    { id: END_STATE_FLAG, kind: 'outcome' as const },
    ...wordFlags.map((id) => ({ id, kind: 'process' as const, absence: true as const })),
  ];
  const turnOf = (outcome: CheckOutcome): number | null =>
    outcome.reached && outcome.step !== null ? (conversation.calls[outcome.step]?.turn ?? null) : null;
  const result = (outcome: CheckOutcome, kind: 'process' | 'outcome'): FlagResult =>
    outcome.reached
      ? { reached: true, turn: turnOf(outcome), kind }
      : { reached: false, turn: null, kind, detail: outcome.detail };
  const results: Record<string, FlagResult> = {};
  for (const flag of scenario.file.flags)
    results[flag.id] = result(runCheck(flag.check, state, conversation), checkKind(flag.check).kind);
  results[END_STATE_FLAG] = result(endStateCheck(state, scenario.expected), 'outcome');
  const judged = {
    rules: words,
    seed: scenario.seed,
    requester: scenario.file.requester,
    state,
    conversation,
  };
  for (const id of wordFlags) results[id] = result(wordCheck(id, judged), 'process');
  const flags = creditAbsences(meta, results);
  return { flags, ...scoreTrial(meta, flags, false) };
}

/** The user's replies as the checks read them: each with the turn whose message it answered. */
export function userReplies(turns: readonly TurnLog[]): Conversation['userReplies'] {
  return turns.flatMap((l) =>
    l.user_reply === undefined ? [] : [{ turn: l.turn, text: l.user_reply.text }],
  );
}

/** What the agent told the user: the text of each turn that made no tool calls. */
export function agentMessages(turns: readonly TurnLog[]): Conversation['agentMessages'] {
  return turns.flatMap((l) =>
    l.tool_calls.length === 0 && l.assistant_text.trim() !== ''
      ? [{ turn: l.turn, text: l.assistant_text }]
      : [],
  );
}

/** A check's kind in the shape the scoring core reads. */
function kindOf(check: Parameters<typeof checkKind>[0]): {
  kind: 'process' | 'outcome';
  absence?: true;
} {
  const k = checkKind(check);
  return k.absence ? { kind: k.kind, absence: true } : { kind: k.kind };
}
