/**
 * When a required command counts as run. The rules:
 * - only simple commands the harness parsed from execute_command calls that ran count (never the
 *   raw text: `echo skill/x.sh --title a` runs echo);
 * - the regular expression must match the command's words joined by spaces, and must name what
 *   runs: once the words up to the program (the interpreter and its script, if any) are blanked, it
 *   must no longer match. So `x\.sh --title \S+` counts `sh skill/x.sh --title a` but not `echo
 *   x.sh --title a`, and a pattern naming only arguments (`--title a`) never counts;
 * - with `exit_code`, the command's own exit code (harness-captured, and only when the call's status
 *   is known to be the command's own) must be that code;
 * - a run of a stubbed script counts only when a line of the stub log pairs with it (stub-log.ts):
 *   the stub really ran, with those arguments.
 */
import type { CheckContext } from '../tasks/types.js';
import { type Invocation, invocations, invocationText } from './invocations.js';
import { pairStubRuns, runKey, type StubCall, stubLog } from './stub-log.js';

export interface CommandGroup {
  /** The flag id's suffix: the index, or the manifest's id. */
  id: string;
  /** Any of them may match. */
  patterns: readonly RegExp[];
  exitCode: number | null;
  recheck: boolean;
  description: string | null;
}

export interface Matcher {
  /** Absolute paths of the stubbed scripts in the sandbox -> path relative to the skill folder. */
  stubs: ReadonlyMap<string, string>;
}

export interface CommandRun {
  inv: Invocation;
  /** The stub log's line for a stubbed script (its real argv). */
  stubCall: StubCall | null;
}

/** The regex matches the words and names what runs (see the file comment). */
function namesWhatRuns(re: RegExp, inv: Pick<Invocation, 'argv' | 'program'>): boolean {
  const { text, programEnd } = invocationText(inv);
  if (!re.test(text)) return false;
  return !re.test(`\u0000${text.slice(programEnd)}`);
}

/** Runs of the group's command that count, in order. */
export async function groupRuns(
  ctx: Pick<CheckContext, 'calls' | 'groundTruth'>,
  group: CommandGroup,
  m: Matcher,
): Promise<{ runs: CommandRun[]; near: string | null }> {
  const all = invocations(ctx);
  const stubOf = (inv: Invocation): string | null =>
    inv.programPath === null ? null : (m.stubs.get(inv.programPath) ?? null);
  const paired =
    m.stubs.size === 0 ? new Map<string, StubCall>() : pairStubRuns(all, stubOf, await stubLog(ctx));
  const runs: CommandRun[] = [];
  let near: string | null = null;
  for (const inv of all) {
    if (!group.patterns.some((re) => namesWhatRuns(re, inv))) continue;
    const stubCall = paired.get(runKey(inv)) ?? null;
    if (stubOf(inv) !== null && stubCall === null) {
      near ??= `\`${invocationText(inv).text}\` did not run the stub (no record of it in the stub log)`;
      continue;
    }
    if (group.exitCode !== null && inv.exitCode !== group.exitCode) {
      const got =
        inv.exitCode === null ? 'an exit code that may not be its own' : `exit code ${inv.exitCode}`;
      near ??= `\`${invocationText(inv).text}\` ran with ${got}, expected ${group.exitCode}`;
      continue;
    }
    runs.push({ inv, stubCall });
  }
  return { runs, near };
}

/** Whether one run per group exists with each after the previous (earliest choice is optimal). */
export function inOrder(perGroup: readonly (readonly CommandRun[])[]): boolean {
  let at: Invocation | null = null;
  for (const runs of perGroup) {
    const prev: Invocation | null = at;
    const next: CommandRun | undefined = runs.find((r) => prev === null || after(r.inv, prev));
    if (next === undefined) return false;
    at = next.inv;
  }
  return true;
}

function after(a: Invocation, b: Invocation): boolean {
  return a.call > b.call || (a.call === b.call && a.step > b.step);
}
