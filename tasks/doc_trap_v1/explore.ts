/**
 * Events of a hunt for a document: reads that failed because the file is not there, and commands
 * that listed or searched the workspace. Judged by each simple command's program and resolved
 * operands, never by substrings of the line (`echo ls` lists nothing), and by what the listing or
 * search showed: a call whose output names nothing of the workspace (a grep that matched nothing,
 * `ls` into /dev/null, a `tree` that is not installed) showed the model nothing to explore with.
 */
import { posix } from 'node:path';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { operandPaths } from '../../src/scoring/operands.js';
import { type StepRef, stepsOf } from '../../src/scoring/ordering.js';
import { isWithin, workspaceRelative } from '../../src/scoring/paths.js';
import { readsOf } from '../../src/scoring/seen.js';
import { parseCommandLine } from '../../src/scoring/shell-commands.js';
import { programName } from '../../src/scoring/shell-wrappers.js';
import type { CheckContext } from '../../src/tasks/types.js';

const LISTERS = new Set(['ls', 'find', 'tree', 'fd', 'fdfind', 'du', 'dir']);

/** The path is the workspace, inside it, or above it (so a listing of it shows the workspace). */
function touchesWorkspace(path: string): boolean {
  return isWithin(path, WORKSPACE_DIR) || isWithin(WORKSPACE_DIR, path);
}

export function compare(a: StepRef, b: StepRef): number {
  return a.call - b.call || a.step - b.step;
}

/**
 * Reads of a workspace file that does not exist: a failed read_file, or a reading command naming a
 * file absent at setup and at the end, in a call that failed.
 */
export function failedReads(ctx: Pick<CheckContext, 'calls' | 'setupSnapshot' | 'finalSnapshot'>): StepRef[] {
  const missing = (abs: string): boolean => {
    const rel = workspaceRelative(abs);
    return rel !== null && !ctx.setupSnapshot.has(rel) && !ctx.finalSnapshot.has(rel);
  };
  const out: StepRef[] = [];
  const steps = stepsOf(ctx);
  ctx.calls.forEach((call, index) => {
    if (call.invalid !== null) return;
    if (call.name === 'read_file') {
      const path = call.arguments?.path;
      if (call.exit_code !== 0 && typeof path === 'string') out.push({ call: index, step: 0 });
      return;
    }
    if (call.exit_code === 0 || call.exit_code === null) return;
    steps[index]?.forEach((s, step) => {
      if (s.reads.some((t) => t.kind === 'file' && missing(t.path))) out.push({ call: index, step });
    });
  });
  return out;
}

type ExploreCtx = Pick<CheckContext, 'calls' | 'setupSnapshot' | 'setupFiles' | 'changeTurns'>;

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

/**
 * Steps that listed (ls, find, tree...) or recursively searched (grep -r, rg) the workspace, in calls
 * whose output showed something of it.
 */
export function explorations(ctx: ExploreCtx): StepRef[] {
  const out: StepRef[] = [];
  const steps = stepsOf(ctx);
  const showed = callsShowingWorkspace(ctx);
  ctx.calls.forEach((call, index) => {
    const command = call.arguments?.command;
    if (call.name !== 'execute_command' || call.invalid !== null || typeof command !== 'string') return;
    if (!showed.has(index)) return;
    // One step per simple command, in parse order, as the scoring core numbers them.
    parseCommandLine(command, call.cwd).forEach((cmd, step) => {
      const searched = (steps[index]?.[step]?.reads ?? []).some(
        (t) => t.kind === 'tree' && touchesWorkspace(t.root),
      );
      let listed = false;
      if (LISTERS.has(programName(cmd.argv[0]) ?? '')) {
        const operands = cmd.argv.slice(1).filter((w) => !w.text.startsWith('-'));
        const paths = operands
          .flatMap((w) => operandPaths(w, cmd.cwd))
          .map((p) => (p.glob ? p.pattern : p.path));
        const targets = operands.length === 0 && cmd.cwd !== null ? [cmd.cwd] : paths;
        listed = targets.some(touchesWorkspace);
      }
      if (searched || listed) out.push({ call: index, step });
    });
  });
  return out;
}
