/**
 * Events of a hunt for a document, from the process trace and what the model was shown, never from
 * the command's wording: reads that failed because the file is not there, and processes that
 * listed or searched the workspace. A listing or a search opens the directories it walks (`ls`,
 * `find`, `grep -r`, a script's os.walk all do; `echo ls -R` runs nothing), and counts only in a
 * call whose output named something of the workspace: a grep that matched nothing, `ls` into
 * /dev/null or a `tree` that is not installed showed the model nothing to explore with. The call's
 * own shell is left out: it opens a directory to expand a glob (`cat ops/*.md`), which lists nothing.
 */
import { posix } from 'node:path';
import type { ProcessLog } from '../../src/results/trial.js';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import type { StepRef } from '../../src/scoring/ordering.js';
import { isWithin, workspaceRelative } from '../../src/scoring/paths.js';
import { ownExitCode, programRuns } from '../../src/scoring/program-runs.js';
import { readsOf } from '../../src/scoring/seen.js';
import type { CheckContext } from '../../src/tasks/types.js';

export function compare(a: StepRef, b: StepRef): number {
  return a.call - b.call || a.step - b.step;
}

/**
 * Reads of a workspace file that does not exist: a failed read_file, or a traced program that was
 * handed a path absent at setup and at the end (`cat docs/release.md`, `sed -n 1,20p ...`) and
 * failed.
 */
export function failedReads(ctx: Pick<CheckContext, 'calls' | 'setupSnapshot' | 'finalSnapshot'>): StepRef[] {
  const missing = (abs: string): boolean => {
    const rel = workspaceRelative(abs);
    return rel !== null && rel !== '' && !ctx.setupSnapshot.has(rel) && !ctx.finalSnapshot.has(rel);
  };
  const out: StepRef[] = [];
  ctx.calls.forEach((call, index) => {
    if (call.invalid !== null || call.name !== 'read_file') return;
    if (call.exit_code !== 0 && typeof call.arguments?.path === 'string') out.push({ call: index, step: 0 });
  });
  for (const run of programRuns(ctx)) {
    const code = ownExitCode(run);
    if (code === 0 || code === null || run.process.cwd === null) continue;
    const cwd = run.process.cwd;
    const operands = run.argv.slice(1).filter((a) => a !== '' && !a.startsWith('-'));
    if (operands.some((a) => missing(posix.resolve(cwd, a)))) out.push(run.at);
  }
  return out.sort(compare);
}

type ExploreCtx = Pick<
  CheckContext,
  'calls' | 'setupSnapshot' | 'finalSnapshot' | 'setupFiles' | 'changeTurns'
>;

/**
 * The calls whose output showed something of the workspace: the name of a file or folder there (as
 * `ls`, `find`, `tree` or `grep -rl` print them), or a line of one of the task's files (`grep -rh`).
 */
function callsShowingWorkspace(ctx: ExploreCtx): Set<number> {
  const out = new Set<number>();
  for (const rel of ctx.setupFiles.keys())
    for (const r of readsOf(ctx, `${WORKSPACE_DIR}/${rel}`)) out.add(r.at.call);
  const names = new Set([...ctx.setupSnapshot.keys()].map((p) => posix.basename(p)));
  ctx.calls.forEach((call, index) => {
    const text = `${call.stdout}\n${call.stderr}`;
    if (text.split(/[\s:'"`/]+/).some((w) => names.has(w))) out.add(index);
  });
  return out;
}

/** Processes that opened a directory of the workspace (listed or searched it), in calls whose output showed something of it. */
export function explorations(ctx: ExploreCtx): StepRef[] {
  const isDir = (abs: string): boolean => {
    if (!isWithin(abs, WORKSPACE_DIR)) return false;
    const rel = workspaceRelative(abs) ?? '';
    return rel === '' || [ctx.setupSnapshot, ctx.finalSnapshot].some((s) => s.get(rel)?.kind === 'dir');
  };
  const out: StepRef[] = [];
  const showed = callsShowingWorkspace(ctx);
  ctx.calls.forEach((call, index) => {
    if (call.name !== 'execute_command' || call.invalid !== null || !showed.has(index)) return;
    (call.processes ?? []).forEach((p, step) => {
      if (!isCallShell(p) && p.reads.some(isDir)) out.push({ call: index, step });
    });
  });
  return out;
}

/** The call's own shell, unless it exec'd a program of the agent's (`exec ls -R`). */
function isCallShell(p: ProcessLog): boolean {
  return p.parent_pid === null && p.earlier_runs === undefined;
}
