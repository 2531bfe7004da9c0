/**
 * Why a trial's turns ended, in words for people: the one place the `end_reason` enum becomes text
 * (`max_turns` -> "ran out of turns (12)"). Programs branch on the enum, never on these words.
 */
import type { EndReason } from './trial.js';

export interface EndLimits {
  /** The turn limit the trial ran under (its turns, when it ran out of them). */
  maxTurns?: number | null;
  /** The agent time limit in seconds (Harbor tasks). */
  timeLimitSec?: number | null;
}

export function endReasonWords(end: EndReason, limits: EndLimits = {}): string {
  switch (end) {
    case 'final_answer':
      return 'gave a final answer';
    case 'user_ended':
      return 'the user ended the conversation';
    case 'max_turns':
      return `ran out of turns${bracket(limits.maxTurns)}`;
    case 'agent_timeout':
      return `ran out of agent time${bracket(limits.timeLimitSec, ' s')}`;
    case 'request_failed':
      return 'a model request failed';
    case 'request_timeout':
      return 'the model did not answer within the request timeout';
    case 'harness_error':
      return 'the harness failed';
    case 'tool_stalled':
      return 'a tool stalled';
  }
}

function bracket(n: number | null | undefined, unit = ''): string {
  return n === null || n === undefined ? '' : ` (${n}${unit})`;
}
