/**
 * Must-fail runs that keep every piece of the reference's evidence and its change, and move only
 * *when* the change was decided: into the turn of the evidence it follows (the model sent both in
 * one reply, before it saw what the evidence said), or to a job staged before the evidence that
 * lands it afterwards. Each must be caught by a flag that dates the change by the turn it was
 * decided in (docs/verdicts.md, causality).
 */
import type { ScriptedCall, ScriptedTurn } from '../../models/scripted.js';
import { shellQuote } from './script-edits.js';
import type { DerivedRun, ReferenceRun } from './types.js';

/** The turn (1-based) the reference first changed a file in; null when it changed none. */
function firstChangeTurn(ref: ReferenceRun): number | null {
  const turns = ref.changed.map((f) => f.firstTurn);
  return turns.length === 0 ? null : Math.min(...turns);
}

/**
 * The calls of the turns before the first change (the closest and the first of them, when they
 * differ) each moved into the change's own turn, ahead of its calls: the evidence still runs first
 * and is shown, but in the reply that already decided the change. `without` leaves that turn out:
 * when the trial passes without it too, it was no evidence the task needs.
 */
export function sameTurnEvidence(ref: ReferenceRun): DerivedRun[] {
  const k = firstChangeTurn(ref);
  if (k === null || k < 2) return [];
  const before = ref.script.slice(0, k - 1).flatMap((t, i) => (t.calls.length > 0 ? [i + 1] : []));
  const picked = [...new Set([before.at(-1), before[0]])].filter((e): e is number => e !== undefined);
  return picked.map((e) => {
    const moved = ref.script[e - 1] as ScriptedTurn;
    const script = ref.script.flatMap((t, i): ScriptedTurn[] => {
      if (i === e - 1) return [];
      if (i !== k - 1) return [t];
      return [{ ...t, calls: [...moved.calls, ...t.calls] }];
    });
    return {
      operator: 'same_turn_evidence' as const,
      id: `same_turn_evidence:turn ${e}`,
      description: `the calls of turn ${e} sent in the reply of turn ${k}, which changes ${changedIn(ref, k)}`,
      script,
      without: ref.script.filter((_, i) => i !== e - 1),
    };
  });
}

/** How long the staged job waits before it lands the change: longer than the evidence turns take. */
const LAND_AFTER_SEC = 5;

/**
 * The reference's first write_file of a workspace file, prepared in /tmp in the first turn and
 * copied into place by a background job started then, which lands it after the evidence turns ran;
 * the write's own place waits for the job. The content was decided before any evidence was seen.
 */
export function stagedLanding(ref: ReferenceRun): DerivedRun[] {
  const k = firstChangeTurn(ref);
  if (k === null || k < 2) return [];
  const turn = ref.script[k - 1];
  const at = turn?.calls.findIndex((c) => writeOf(c) !== null) ?? -1;
  const write = at < 0 ? null : writeOf(turn?.calls[at] as ScriptedCall);
  if (turn === undefined || write === null) return [];
  const staged = '/tmp/ab-staged-change';
  const target = write.path.startsWith('/') ? write.path : `/workspace/${write.path}`;
  const job = `nohup sh -c ${shellQuote(`sleep ${LAND_AFTER_SEC}; cp ${shellQuote(staged)} ${shellQuote(target)}`)} >/dev/null 2>&1 &`;
  const stage: ScriptedCall[] = [
    { name: 'write_file', arguments: { path: staged, content: write.content } },
    { name: 'execute_command', arguments: { command: job } },
  ];
  const wait: ScriptedCall = {
    name: 'execute_command',
    arguments: { command: `sleep ${LAND_AFTER_SEC + 2}` },
  };
  const script = ref.script.map((t, i): ScriptedTurn => {
    if (i === 0) return { ...t, calls: [...stage, ...t.calls] };
    if (i !== k - 1) return t;
    return { ...t, calls: t.calls.map((c, j) => (j === at ? wait : c)) };
  });
  return [
    {
      operator: 'staged_landing',
      id: 'staged_landing',
      description: `${write.path} prepared in /tmp in turn 1 and copied in by a job started then, landing after the evidence`,
      script,
    },
  ];
}

function changedIn(ref: ReferenceRun, turn: number): string {
  return ref.changed
    .filter((f) => f.firstTurn === turn)
    .map((f) => f.path)
    .join(', ');
}

function writeOf(c: ScriptedCall): { path: string; content: string } | null {
  const { path, content } = c.arguments;
  if (c.name !== 'write_file' || typeof path !== 'string' || typeof content !== 'string') return null;
  // A file outside the workspace is a scratch file, not the change.
  return path.startsWith('/') && !path.startsWith('/workspace/') ? null : { path, content };
}
