/**
 * validate's rows. Each row is a typed outcome, so the exit code is chosen from the kinds, never from
 * a row's wording: a failed row is an unsound task (exit 1), an error row a harness or engine failure
 * (exit 3), a cached row a pass proven earlier on the same inputs (src/validate/proof-key.ts).
 */
import { GateFailedError, InfraError } from '../util/errors.js';

interface RowBase {
  taskId: string;
  /** 'oracle', 'do-nothing', a lure's id, `alternate:<id>` or `cheat:<id>`. */
  run: string;
  /** What was expected and, when not passed, what happened instead. */
  detail: string;
  /** A failed row's evidence: what the scripts it ran printed (a Harbor task's solve.sh and test.sh). */
  output?: string;
}

/** When and under which key a cached pass was proven. */
interface ProofStamp {
  key: string;
  /** ISO time of the run that proved it. */
  provedAt: string;
}

export type ValidationRow =
  /** skipped: a metamorphic operator the task declares does not apply (its reason in detail). */
  | (RowBase & { kind: 'passed' | 'failed' | 'error' | 'skipped' })
  | (RowBase & { kind: 'cached'; proof: ProofStamp });

/** How much of a failed row's output the table shows: its last lines (the whole end is in `output`). */
const OUTPUT_LINES = 30;

/** Short enough for a row, long enough to tell keys apart by eye. */
export const SHORT_KEY = 12;

/** A judge's verdict as a row. */
export function judgedRow(
  taskId: string,
  run: string,
  verdict: { ok: boolean; detail: string; output?: string },
): ValidationRow {
  return {
    taskId,
    run,
    kind: verdict.ok ? 'passed' : 'failed',
    detail: verdict.detail,
    // What the scripts printed is the evidence of a failure; a pass needs none.
    ...(verdict.ok || verdict.output === undefined ? {} : { output: verdict.output }),
  };
}

function isPass(row: ValidationRow): boolean {
  return row.kind === 'passed' || row.kind === 'cached' || row.kind === 'skipped';
}

/** Throws the error validate exits with when a row is not a pass: an infrastructure error outranks an unsound task. */
export function assertSound(rows: readonly ValidationRow[]): void {
  const bad = rows.filter((r) => !isPass(r));
  if (bad.some((r) => r.kind === 'error')) throw new InfraError(`${bad.length} validation(s) failed`);
  if (bad.length > 0)
    throw new GateFailedError(`${bad.length} of ${rows.length} validations failed: the suite is not sound`);
}

function cell(row: ValidationRow): string {
  if (row.kind === 'skipped') return 'n/a';
  return isPass(row) ? 'ok' : 'FAIL';
}

/** The detail as shown: a cached row says where its pass comes from. */
function shownDetail(row: ValidationRow): string {
  if (row.kind !== 'cached') return row.detail;
  return `${row.detail} (cached proof from ${row.proof.provedAt.slice(0, 10)}, key ${row.proof.key.slice(0, SHORT_KEY)})`;
}

/** One progress line for stderr. */
export function rowLine(row: ValidationRow): string {
  return `${cell(row).padEnd(4)} ${row.taskId} ${row.run}: ${shownDetail(row)}`;
}

export function formatValidation(rows: readonly ValidationRow[]): string {
  const widths = [
    Math.max(4, ...rows.map((r) => r.taskId.length)),
    Math.max(3, ...rows.map((r) => r.run.length)),
  ];
  const line = (a: string, b: string, c: string, d: string): string =>
    `${a.padEnd(widths[0] ?? 0)}  ${b.padEnd(widths[1] ?? 0)}  ${c.padEnd(4)}  ${d}`.trimEnd();
  return [
    line('task', 'run', 'ok', 'detail'),
    ...rows.flatMap((r) => [line(r.taskId, r.run, cell(r), shownDetail(r)), ...outputLines(r)]),
  ].join('\n');
}

/** Under a failed row, the last lines of what its scripts printed, indented. */
function outputLines(row: ValidationRow): string[] {
  if (isPass(row) || row.output === undefined) return [];
  const lines = row.output.split('\n');
  const shown = lines.length <= OUTPUT_LINES ? lines : ['...', ...lines.slice(-OUTPUT_LINES)];
  return shown.map((l) => `    | ${l}`.trimEnd());
}
