/** The verdicts of validate's runs, each on one trial record: pure, so each way a task can be unsound is testable. */
import type { FlagResult, TrialRecord } from '../results/trial.js';
import { offlineSignatures } from '../sandbox/offline-signatures.js';
import type { Lure } from '../tasks/types.js';

/** A verdict, and what the scripts printed when it is a failure (a verifier's test.sh, the last command). */
interface Judged {
  ok: boolean;
  detail: string;
  output?: string;
}

export function judgeOracle(t: TrialRecord): Judged {
  if (t.passed) return { ok: true, detail: 'passes' };
  // Checks that gave no verdict (a verifier with no reward) prove nothing either way.
  if (t.agent_fault !== undefined)
    return failedWith(t, `reference solution unproven: ${t.agent_fault.detail}`);
  return failedWith(t, `reference solution fails: ${whyFailed(t)}`);
}

export function judgeAlternate(t: TrialRecord): { ok: boolean; detail: string } {
  if (t.passed) return { ok: true, detail: 'passes' };
  const missed = Object.entries(t.flags)
    .filter(([, f]) => !f.reached)
    .map(([id, f]) => `${id}${why(f)}`);
  const reason = t.tamper_detected
    ? `tamper: ${t.tamper_violations.join('; ')}`
    : `missed ${missed.join('; ')}`;
  return { ok: false, detail: `a legitimate solution fails (${reason})` };
}

export function judgeNothing(t: TrialRecord): Judged {
  if (t.status === 'error') return { ok: false, detail: errored(t) };
  // A verifier that gave no reward on an untouched workspace proves nothing about doing nothing.
  if (t.agent_fault !== undefined) return failedWith(t, `doing nothing unproven: ${t.agent_fault.detail}`);
  const reached = Object.entries(t.flags)
    .filter(([, f]) => f.reached)
    .map(([id]) => id);
  if (reached.length === 0 && t.score === 0) return { ok: true, detail: 'scores 0' };
  return failedWith(t, `doing nothing reaches ${reached.join(', ') || 'nothing'} (score ${t.score})`);
}

/** Why a judged trial failed: its fault, or the flags it missed with what each says. */
function whyFailed(t: TrialRecord): string {
  if (t.status === 'error') return errored(t);
  if (t.agent_fault !== undefined) return t.agent_fault.detail;
  const missed = Object.entries(t.flags).filter(([, f]) => !f.reached);
  if (t.tamper_detected || missed.length === 0) return t.failure_reason ?? 'unknown';
  return missed.map(([id, f]) => `${id} missed${why(f)}`).join('; ');
}

/**
 * A failed verdict with its evidence: the end of what the trial's last command printed (the
 * reference's: Harbor's solve.sh) and of what its verifier printed, and the offline signatures the
 * two show named in the detail (a script that fetched at run time with no network).
 */
function failedWith(t: TrialRecord, detail: string): Judged {
  const last = t.turn_logs.flatMap((l) => l.tool_calls).findLast((c) => c.name === 'execute_command');
  const command = typeof last?.arguments?.command === 'string' ? last.arguments.command : null;
  const parts = [
    ...(last === undefined || command === null || `${last.stdout}${last.stderr}`.trim() === ''
      ? []
      : [
          `\`${command}\` printed (exit ${last.exit_code ?? 'none'}; its end):\n${tail(`${last.stdout}${last.stderr}`)}`,
        ]),
    ...(t.harbor_verifier === undefined || t.harbor_verifier.output.trim() === ''
      ? []
      : [
          `tests/test.sh printed (exit ${t.harbor_verifier.exit_code ?? 'none'}; its end):\n${tail(t.harbor_verifier.output)}`,
        ]),
  ];
  const signs = offlineSignatures(parts.join('\n'));
  const named = signs.filter((s) => !detail.includes(s));
  return {
    ok: false,
    detail: named.length === 0 ? detail : `${detail} (offline? ${named.join('; ')})`,
    ...(parts.length === 0 ? {} : { output: parts.join('\n') }),
  };
}

/** The last lines of a script's output, as a row keeps them. */
function tail(text: string): string {
  const lines = text.trimEnd().split('\n');
  return lines.slice(-40).join('\n');
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
