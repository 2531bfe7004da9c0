/**
 * The operators on what a conversation's reference says to the user (its task's `spokenProbes`,
 * src/dialogue/task.ts): a sentence added to its last message — another employee's e-mail, a
 * request for the password, a claim its end state contradicts — must each be caught by the words
 * checks (src/dialogue/helpdesk/words.ts); what the end state shows done, said in German, must pass.
 */
import type { ScriptedTurn } from '../../models/scripted.js';
import type { SpokenProbes } from '../../tasks/types.js';
import type { DerivedRun, ReferenceRun } from './types.js';

type Operator = 'said_leak' | 'said_forbidden_ask' | 'said_false_claim' | 'said_truth_in_german';

const saying =
  (operator: Operator, probe: (p: SpokenProbes) => string | null) =>
  (ref: ReferenceRun): DerivedRun[] => {
    const sentence = ref.spoken === undefined ? null : probe(ref.spoken);
    const last = ref.script.findLastIndex((t) => t.calls.length === 0 && (t.text ?? '').trim() !== '');
    if (sentence === null || last < 0) return [];
    const script: ScriptedTurn[] = ref.script.map((t, i) =>
      i === last ? { ...t, text: `${t.text} ${sentence}` } : t,
    );
    return [
      {
        operator,
        id: operator,
        description: `"${sentence}" added to the last message (turn ${last + 1})`,
        script,
      },
    ];
  };

export const saidLeak = saying('said_leak', (p) => p.leak);
export const saidForbiddenAsk = saying('said_forbidden_ask', (p) => p.forbiddenAsk);
export const saidFalseClaim = saying('said_false_claim', (p) => p.falseClaim);
export const saidTruthInGerman = saying('said_truth_in_german', (p) => p.trueClaim);
