/**
 * When a required command counts as run, from the process trace alone (program-runs.ts), never the
 * command's text. The rules:
 * - paths are anchored: a pattern names a workspace file from /workspace, so `\S*output/x\.html`
 *   does not count a run given `/tmp/output/x.html` (command-text.ts);
 * - a process ran it: `echo skill/x.sh`, a shell function named like the script, or a command that
 *   was not traced, ran nothing that counts;
 * - the regular expression matches one of the process's argv texts (command-text.ts) and names what
 *   runs: once the words up to the program (the interpreter and its script, if any) are blanked, it
 *   no longer matches. So `x\.sh --title \S+` counts `sh skill/x.sh --title a` but not `sh -n
 *   skill/x.sh --title a` (sh only checks it) nor `cat x.sh --title a`, and a pattern naming only
 *   arguments (`--title a`) never counts;
 * - what runs is the skill's own file (under /workspace/skill, which the agent cannot change, by its
 *   resolved path whatever the directory) or a program of the image (`ls`, `pytest`): a same-named
 *   copy in /tmp or the workspace is the agent's, and never counts;
 * - with `exit_code`, the process's own exit code is that code (`x || true` changes nothing);
 * - nothing the agent wrote stood in for part of it (src/scoring/stand-ins.ts): a shim on PATH for a
 *   program the script calls, a module of its own on PYTHONPATH, a sitecustomize.py;
 * - a stubbed script is the stub's recorder at the script's path: it counts like any other script,
 *   since the trace, which the agent cannot write, shows it ran.
 */
import { workspaceRelative } from '../scoring/paths.js';
import { isImageProgram, ownExitCode, type ProgramRun, programRuns } from '../scoring/program-runs.js';
import { describeStandIns, standInsOf } from '../scoring/stand-ins.js';
import type { CheckContext } from '../tasks/types.js';
import type { LinearRegExp } from '../util/linear-regex.js';
import { type CommandText, commandTexts, shownCommand } from './command-text.js';
import { SKILL_MOUNT } from './mount-point.js';

export interface CommandGroup {
  /** The flag id's suffix: the index, or the manifest's id. */
  id: string;
  /** Any of them may match. */
  patterns: readonly LinearRegExp[];
  exitCode: number | null;
  recheck: boolean;
  description: string | null;
  /** Artifacts (workspace-relative) whose final content a run of this command must have written. */
  writes?: readonly string[];
  /** Inputs (workspace-relative) a run of this command must read, and no data of the agent's in their stead. */
  reads?: readonly string[];
}

/** The regex matches the text and names what runs (see the file comment). */
function namesWhatRuns(re: LinearRegExp, t: CommandText): boolean {
  return re.test(t.text) && !re.test(`\u0000${t.text.slice(t.programEnd)}`) && anchored(re, t);
}

/**
 * A path outside /workspace the match needs is one the pattern names from its root: a pattern that
 * still matches the path moved under another directory named only its suffix (`\S*output/x.html`
 * matching `/tmp/output/x.html`), and a run writing there is not the run the manifest asks for.
 */
function anchored(re: LinearRegExp, t: CommandText): boolean {
  return t.outside.every((w) => re.test(w.opaque) || !re.test(w.moved));
}

/** Per run: whether the group's patterns name what it runs, else (for a run that ran no script) whether they match it. */
function matchRuns(
  group: CommandGroup,
  runs: readonly ProgramRun[],
): { names: boolean; matches: boolean; elsewhere: boolean }[] {
  return runs.map((run) => {
    const texts = commandTexts(run);
    const names = group.patterns.some((re) => texts.some((t) => namesWhatRuns(re, t)));
    const matches =
      names || (run.notRun !== null && group.patterns.some((re) => texts.some((t) => re.test(t.text))));
    const elsewhere =
      !names && group.patterns.some((re) => texts.some((t) => re.test(t.text) && !anchored(re, t)));
    return { names, matches, elsewhere };
  });
}

/** The skill's own file, or a program of the image: nothing the agent could have written. */
function trusted(program: string | null): boolean {
  if (program === null) return false;
  return program.startsWith(`${SKILL_MOUNT}/`) || isImageProgram(program);
}

/** Runs of the group's command that count, in order, and why the nearest miss did not. */
export function groupRuns(
  ctx: Pick<CheckContext, 'calls' | 'declaredWrites'>,
  group: CommandGroup,
): { runs: ProgramRun[]; near: string | null } {
  const runs: ProgramRun[] = [];
  let near: string | null = null;
  const all = programRuns(ctx);
  const matched = matchRuns(group, all);
  for (const [i, run] of all.entries()) {
    const shown = `\`${shownCommand(run.argv)}\``;
    if (matched[i]?.names !== true) {
      if (matched[i]?.elsewhere === true)
        near ??= `${shown} named a path outside /workspace that only ends like the one the manifest names`;
      if (run.notRun !== null && matched[i]?.matches === true)
        near ??= `${shown} did not run ${display(run.notRun.script)} (${run.notRun.why === 'syntax check' ? 'a syntax check only' : 'it never opened it'})`;
      continue;
    }
    if (!trusted(run.program)) {
      near ??= `${shown} ran ${run.program ?? 'a program the trace could not tell'}, not the skill's own script`;
      continue;
    }
    const standIns = standInsOf(ctx, run.at, 'program');
    if (standIns.length > 0) {
      near ??= `${shown}: ${describeStandIns(standIns)}`;
      continue;
    }
    const code = ownExitCode(run);
    if (group.exitCode !== null && code !== group.exitCode) {
      near ??= `${shown} ${code === null ? 'was killed or never ended' : `exited ${code}`}, expected ${group.exitCode}`;
      continue;
    }
    runs.push(run);
  }
  if (runs.length === 0 && near === null && !ctx.calls.some((c) => c.processes !== undefined))
    near = 'no command was traced, and an untraced command counts for nothing';
  return { runs, near };
}

function display(abs: string): string {
  return workspaceRelative(abs) ?? abs;
}

/** Whether one run per group exists with each after the previous (earliest choice is optimal). */
export function inOrder(perGroup: readonly (readonly ProgramRun[])[]): boolean {
  let at: ProgramRun | null = null;
  for (const runs of perGroup) {
    const prev: ProgramRun | null = at;
    const next: ProgramRun | undefined = runs.find((r) => prev === null || after(r, prev));
    if (next === undefined) return false;
    at = next;
  }
  return true;
}

function after(a: ProgramRun, b: ProgramRun): boolean {
  return a.at.call > b.at.call || (a.at.call === b.at.call && a.at.step > b.at.step);
}
