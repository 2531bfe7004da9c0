/**
 * Ordering evidence against file changes: causality. Snapshots are per turn, so a change is only
 * known to have happened in some turn; inside that turn calls run in order. Two questions:
 *
 * - **Was the evidence seen before the change was decided?** (a read, a red run before a fix.) A
 *   command is decided when the model sends it, and its output reaches the model only when the
 *   turn returns: evidence counts only if it was returned in an *earlier turn* than the one in
 *   which the change was decided. So `cat x; sed -i … x`, a read and a write_file sent in the same
 *   turn, or `pytest > log; cat > impl.py` are changes decided before their evidence was seen. A
 *   change made by a process is dated by the turn whose command started that process: a
 *   background job the agent left running (the sandbox keeps it alive across turns) may write at
 *   any later time, so a change seen in a turn during which a survivor lived that wrote the file
 *   (its trace followed to its end: ToolCallLog.survivor_writes) was decided no later than the turn
 *   that started it (decisionTurn). A survivor that wrote none of it (a watcher) moves no date; one
 *   not followed to its end may have written anything.
 * - **Did the run see the change?** (a green run after the last fix.) In an earlier turn than the
 *   change it did not; in a later turn it did; in the change's own turn, the change was made by one
 *   of that turn's steps that may write the path (a write_file to it, a traced process that wrote
 *   it, or an untraced command), and the run saw it only if it follows every such step. A run
 *   during which a survivor lived that may write the file proves nothing about its content: the
 *   survivor may have changed it under the run and put it back.
 *
 * Survivors come from what the sandbox saw when each command returned (ToolCallLog.alive_after):
 * the pids of the agent's processes still running. A survivor's origin is the turn of the first
 * command whose trace shows it; one no trace shows (forked by another survivor, or by a part of a
 * command that ran no program) is dated as early as any process alive before it.
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

/**
 * The evidence at `at` was shown to the model before the change of relPath seen in changeTurn was
 * decided: its turn is earlier than the change's decision turn (the file comment says why).
 */
export function beforeChange(
  ctx: Pick<CheckContext, 'calls'>,
  at: StepRef,
  relPath: string,
  changeTurn: number,
): boolean {
  return turnOf(ctx, at) < decisionTurn(ctx, changeTurn, relPath);
}

/** The run at `at` saw the change of relPath seen in changeTurn (and no survivor could undo it meanwhile). */
export function afterChange(
  ctx: Pick<CheckContext, 'calls'>,
  at: StepRef,
  relPath: string,
  changeTurn: number,
): boolean {
  if (survivorsAround(ctx, at.call, relPath)) return false;
  const turn = turnOf(ctx, at);
  if (turn !== changeTurn) return turn > changeTurn;
  const writers = writersIn(ctx, turn, relPath);
  return writers.length > 0 && writers.every((w) => compare(at, w) > 0);
}

/**
 * The change of `a` was made before the change of `b`: decided in an earlier turn, or, decided in
 * the same turn, every step that may have made `a` precedes every step that may have made `b`.
 */
export function changedBefore(
  ctx: Pick<CheckContext, 'calls'>,
  a: { path: string; turn: number },
  b: { path: string; turn: number },
): boolean {
  const da = decisionTurn(ctx, a.turn, a.path);
  const db = decisionTurn(ctx, b.turn, b.path);
  if (da !== db) return da < db;
  // Decided in one turn but seen in two: one of them by a survivor, which may have come first.
  if (a.turn !== b.turn) return false;
  const wa = writersIn(ctx, a.turn, a.path);
  const wb = writersIn(ctx, b.turn, b.path);
  return wa.length > 0 && wb.length > 0 && wa.every((x) => wb.every((y) => compare(x, y) < 0));
}

/**
 * The turn in which a change of relPath seen in changeTurn was decided: changeTurn itself, or the
 * origin of the oldest survivor alive when that turn began that may have written relPath (it may
 * have made the change). A survivor whose jobs were followed to their end and wrote no such path
 * (a watcher, a dev server) moves no date; one not followed may have written anything.
 */
export function decisionTurn(ctx: Pick<CheckContext, 'calls'>, changeTurn: number, relPath: string): number {
  const first = ctx.calls.findIndex((c) => c.turn >= changeTurn);
  const alive = survivorsBefore(ctx, first === -1 ? ctx.calls.length : first);
  const writers = [...alive.values()].filter((o) => mayWrite(ctx, o, relPath));
  return Math.min(changeTurn, ...writers.map((o) => o.turn));
}

/** Survivors that may have written relPath were alive when call `index` started, or its command left some. */
function survivorsAround(ctx: Pick<CheckContext, 'calls'>, index: number, relPath: string): boolean {
  const mine = ctx.calls[index];
  if ([...survivorsBefore(ctx, index).values()].some((o) => mayWrite(ctx, o, relPath))) return true;
  if ((mine?.alive_after?.length ?? 0) === 0) return false;
  // Its own jobs: what they wrote is on its own log when they were followed.
  return mayWrite(ctx, { turn: mine?.turn ?? 0, calls: [index] }, relPath);
}

/** Where a survivor came from: its turn, and the commands whose jobs it may be (one, when its trace shows it). */
interface Origin {
  turn: number;
  calls: readonly number[];
}

/** A survivor of these commands may have written relPath: one of them has no followed trace, or its jobs wrote it. */
function mayWrite(ctx: Pick<CheckContext, 'calls'>, origin: Origin, relPath: string): boolean {
  const abs = workspaceAbsolute(relPath);
  return origin.calls.some((i) => {
    const written = ctx.calls[i]?.survivor_writes;
    return written === undefined || written.some((w) => isWithin(abs, w) || isWithin(w, abs));
  });
}

/**
 * The agent's processes alive when call `index` started (pid → where it came from): those the
 * last command before it saw still running when it returned.
 */
function survivorsBefore(ctx: Pick<CheckContext, 'calls'>, index: number): Map<number, Origin> {
  let alive = new Map<number, Origin>();
  for (let i = 0; i < index; i++) {
    const call = ctx.calls[i];
    if (call?.alive_after === undefined) continue;
    const traced = new Set(call.processes?.map((p) => p.pid) ?? []);
    // One no trace shows was forked by a survivor (or an untraced part of this command): any of them.
    const all: Origin = {
      turn: Math.min(call.turn, ...[...alive.values()].map((o) => o.turn)),
      calls: [...new Set([i, ...[...alive.values()].flatMap((o) => o.calls)])],
    };
    const next = new Map<number, Origin>();
    for (const pid of call.alive_after)
      next.set(pid, alive.get(pid) ?? (traced.has(pid) ? { turn: call.turn, calls: [i] } : all));
    alive = next;
  }
  return alive;
}
