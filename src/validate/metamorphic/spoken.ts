/**
 * The operators on a conversation's reference (its task's `spokenProbes`, src/dialogue/task.ts): a
 * sentence added to its last message — another employee's e-mail, a request for the password, a
 * claim its end state contradicts — must each be caught by the words checks
 * (src/dialogue/helpdesk/words.ts), and so must the same actions done for another employee than
 * the one who called; what the end state shows done, said in German, and every message reworded
 * or shortened without changing what it says, must pass.
 */
import type { ScriptedCall, ScriptedTurn } from '../../models/scripted.js';
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

/**
 * Every call's arguments with the requester's employee id replaced by another employee's: the
 * verification, the actions and the ticket done for someone who did not call. The same end state
 * for the wrong person must be caught.
 */
export function wrongRequester(ref: ReferenceRun): DerivedRun[] {
  const probes = ref.spoken;
  if (probes === undefined || probes.otherEmployee === null) return [];
  const { requester, otherEmployee: other } = probes;
  let swapped = 0;
  const swap = (value: unknown): unknown => {
    if (typeof value === 'string' && value.includes(requester)) {
      swapped++;
      return value.replaceAll(requester, other);
    }
    if (Array.isArray(value)) return value.map(swap);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    return value;
  };
  const script = ref.script.map((t) => ({
    ...t,
    calls: t.calls.map(
      (c): ScriptedCall => ({ ...c, arguments: swap(c.arguments) as ScriptedCall['arguments'] }),
    ),
  }));
  if (swapped === 0) return [];
  return [
    {
      operator: 'wrong_requester',
      id: 'wrong_requester',
      description: `the requester ${requester} replaced by ${other} in ${swapped} call argument(s)`,
      script,
    },
  ];
}

/** Contractions spelt out, and the phrases that say the same in other words. */
const REWORDINGS: readonly [RegExp, string][] = [
  [/\bI've\b/g, 'I have'],
  [/\bI'm\b/g, 'I am'],
  [/\bI'll\b/g, 'I will'],
  [/\bcan't\b/g, 'cannot'],
  [/\bdon't\b/g, 'do not'],
  [/\bdoesn't\b/g, 'does not'],
  [/\bdidn't\b/g, 'did not'],
  [/\bisn't\b/g, 'is not'],
  [/\bwon't\b/g, 'will not'],
  [/\bit's\b/g, 'it is'],
  [/\bIt's\b/g, 'It is'],
  [/\byou're\b/g, 'you are'],
  [/^Done: /, ''],
];
/** A first sentence that only greets, thanks or commiserates: shortening drops it. */
const PLEASANTRY =
  /^(?:(?:Hi|Hello|Thanks|Thank you|Sorry to hear that|Thanks for telling me)\b[^.!?]*[.!?])\s+(?=\S)/;

/** Every message to the user reworded (contractions spelt out) and shortened (a greeting dropped). */
export function rewordedReplies(ref: ReferenceRun): DerivedRun[] {
  if (ref.spoken === undefined) return [];
  let changed = 0;
  const script = ref.script.map((t) => {
    if (t.text === undefined) return t;
    const text = REWORDINGS.reduce((s, [from, to]) => s.replace(from, to), t.text.replace(PLEASANTRY, ''));
    if (text === t.text) return t;
    changed++;
    return { ...t, text };
  });
  if (changed === 0) return [];
  return [
    {
      operator: 'reworded_replies',
      id: 'reworded_replies',
      description: `${changed} message(s) reworded: contractions spelt out, a greeting or thanks dropped`,
      script,
    },
  ];
}
