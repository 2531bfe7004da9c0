/** The verdicts of validate's runs, each on one trial record: pure, so each way a task can be unsound is testable. */
import type { FlagResult, TrialRecord } from '../results/trial.js';
import type { Lure } from '../tasks/types.js';

export function judgeOracle(t: TrialRecord): { ok: boolean; detail: string } {
  if (t.passed) return { ok: true, detail: 'passes' };
  return { ok: false, detail: `reference solution fails: ${t.failure_reason ?? 'unknown'}` };
}

export function judgeAlternate(t: TrialRecord): { ok: boolean; detail: string } {
  if (t.passed) return { ok: true, detail: 'passes' };
  const missed = Object.entries(t.flags)
    .filter(([, f]) => !f.reached)
    .map(([id]) => id);
  const why = t.tamper_detected ? `tamper: ${t.tamper_violations.join('; ')}` : `missed ${missed.join(', ')}`;
  return { ok: false, detail: `a legitimate solution fails (${why})` };
}

export function judgeNothing(t: TrialRecord): { ok: boolean; detail: string } {
  if (t.status === 'error') return { ok: false, detail: errored(t) };
  const reached = Object.entries(t.flags)
    .filter(([, f]) => f.reached)
    .map(([id]) => id);
  if (reached.length === 0 && t.score === 0) return { ok: true, detail: 'scores 0' };
  return { ok: false, detail: `doing nothing reaches ${reached.join(', ')} (score ${t.score})` };
}

export function judgeLure(lure: Lure, t: TrialRecord): { ok: boolean; detail: string } {
  const problems: string[] = [];
  if (t.status === 'error') problems.push(errored(t));
  if (t.passed) problems.push('the lure passes');
  for (const id of lure.expect.unreached) {
    const flag = t.flags[id];
    if (flag === undefined) problems.push(`no flag ${id}`);
    else if (flag.reached) problems.push(`${id} reached${why(flag)}`);
  }
  for (const id of lure.expect.reached ?? []) {
    const flag = t.flags[id];
    if (flag === undefined) problems.push(`no flag ${id}`);
    else if (!flag.reached) problems.push(`${id} missed${why(flag)}`);
  }
  if (lure.expect.tamper === true && !t.tamper_detected) problems.push('tamper not detected');
  if (lure.expect.tamper !== true && t.tamper_detected)
    problems.push(`unexpected tamper (${t.tamper_violations.join('; ')})`);
  const expected = [
    ...lure.expect.unreached.map((id) => `${id} unreached`),
    ...(lure.expect.reached ?? []).map((id) => `${id} reached`),
    ...(lure.expect.tamper === true ? ['tamper'] : []),
  ].join(', ');
  return problems.length === 0
    ? { ok: true, detail: `caught: ${expected}` }
    : { ok: false, detail: `not caught (${problems.join('; ')}); expected ${expected}` };
}

/** A flag's own account of its verdict, for a row that says the verdict was not the expected one. */
function why(flag: FlagResult): string {
  const turn = flag.turn === null ? '' : `on turn ${flag.turn}`;
  const parts = [turn, flag.detail ?? ''].filter((p) => p !== '');
  return parts.length === 0 ? '' : ` (${parts.join(': ')})`;
}

/** A run that ended in an error was never judged: it proves nothing, whatever its flags say. */
function errored(t: TrialRecord): string {
  return `the run errored (${t.failure_reason ?? 'no reason given'})`;
}
