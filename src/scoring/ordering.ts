/**
 * Ordering events against file changes. Snapshots are per turn, so a change is only known to have
 * happened in some turn; inside that turn calls run in order. The rule:
 *
 * - An event in an earlier turn than the change is before it; in a later turn, after it.
 * - In the change's own turn, the change was made by one of that turn's steps that may write the
 *   path (a write_file to it, a traced process that wrote it, or an untraced command). The event
 *   is before the change only if it precedes every such step, after it only if it follows every
 *   such step, and neither if it is itself one of them or the turn has none (say, a background job
 *   wrote it).
 */
import type { CheckContext } from '../tasks/types.js';
import { isWithin, resolvePath, workspaceAbsolute } from './paths.js';

/** One step: ctx.calls[call], process `step` of its trace (0 for a file tool or an untraced command). */
export interface StepRef {
  call: number;
  step: number;
}

function turnOf(ctx: Pick<CheckContext, 'calls'>, at: StepRef): number {
  return ctx.calls[at.call]?.turn ?? Number.NaN;
}

function compare(a: StepRef, b: StepRef): number {
  return a.call - b.call || a.step - b.step;
}

/**
 * Steps of `turn` that may have written the workspace path `relPath`, in order. A traced command's
 * steps are its processes: the ones the trace saw write, remove or rename onto the path. A
 * write_file is one step, a writer when it named the path. An untraced command ran nothing that
 * can be told, so it may have written anything (its one step is a writer): never guessed from the
 * command's wording.
 */
export function writersIn(ctx: Pick<CheckContext, 'calls'>, turn: number, relPath: string): StepRef[] {
  const abs = workspaceAbsolute(relPath);
  const out: StepRef[] = [];
  ctx.calls.forEach((log, call) => {
    if (log.turn !== turn || log.invalid !== null) return;
    if (log.name === 'execute_command') {
      if (log.processes === undefined) out.push({ call, step: 0 });
      else
        log.processes.forEach((p, step) => {
          if ([...p.writes, ...p.removed, ...p.renamed_to].some((w) => isWithin(abs, w)))
            out.push({ call, step });
        });
      return;
    }
    const path = log.arguments?.path;
    // A write killed midway (no exit code) may have happened; a failed one did not.
    const wrote = log.exit_code === 0 || log.exit_code === null;
    if (log.name === 'write_file' && wrote && typeof path === 'string' && resolvePath(log.cwd, path) === abs)
      out.push({ call, step: 0 });
  });
  return out;
}

/** The event came before the change of relPath seen in changeTurn. */
export function beforeChange(
  ctx: Pick<CheckContext, 'calls'>,
  at: StepRef,
  relPath: string,
  changeTurn: number,
): boolean {
  const turn = turnOf(ctx, at);
  if (turn !== changeTurn) return turn < changeTurn;
  const writers = writersIn(ctx, turn, relPath);
  return writers.length > 0 && writers.every((w) => compare(at, w) < 0);
}

/** The event came after the change of relPath seen in changeTurn. */
export function afterChange(
  ctx: Pick<CheckContext, 'calls'>,
  at: StepRef,
  relPath: string,
  changeTurn: number,
): boolean {
  const turn = turnOf(ctx, at);
  if (turn !== changeTurn) return turn > changeTurn;
  const writers = writersIn(ctx, turn, relPath);
  return writers.length > 0 && writers.every((w) => compare(at, w) > 0);
}

/** The change of `a` seen in turnA came before the change of `b` seen in turnB (same rule, both sides unsure). */
export function changedBefore(
  ctx: Pick<CheckContext, 'calls'>,
  a: { path: string; turn: number },
  b: { path: string; turn: number },
): boolean {
  if (a.turn !== b.turn) return a.turn < b.turn;
  const wa = writersIn(ctx, a.turn, a.path);
  const wb = writersIn(ctx, b.turn, b.path);
  return wa.length > 0 && wb.length > 0 && wa.every((x) => wb.every((y) => compare(x, y) < 0));
}
