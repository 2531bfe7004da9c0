/** Building blocks for task checks: reads, pytest runs, file changes and ground truth, from a CheckContext. */
import type { CheckContext } from '../tasks/types.js';
import { pytestExitCode } from './commands.js';
import { compileGlob } from './glob.js';
import { type StepRef, stepsOf } from './ordering.js';
import { workspaceAbsolute } from './paths.js';
import { covers, type ReadTarget } from './read-target.js';

type Ctx = Pick<CheckContext, 'calls'>;

export interface ReadEvent {
  turn: number;
  at: StepRef;
  target: ReadTarget;
}

function readEvents(ctx: Ctx): ReadEvent[] {
  const out: ReadEvent[] = [];
  stepsOf(ctx).forEach((steps, call) => {
    const turn = ctx.calls[call]?.turn ?? Number.NaN;
    steps.forEach((s, step) => {
      for (const target of s.reads) out.push({ turn, at: { call, step }, target });
    });
  });
  return out;
}

/**
 * Reads that covered the file at absPath, in order. With `searches: false`, only reads that named it
 * (by path or glob) count; recursive searches (grep -r) that merely passed over it do not.
 */
export function readsCovering(ctx: Ctx, absPath: string, opts: { searches: boolean }): ReadEvent[] {
  return readEvents(ctx).filter(
    (e) => (opts.searches || e.target.kind !== 'tree') && covers(e.target, absPath),
  );
}

export interface PytestRun {
  turn: number;
  at: StepRef;
  /** pytest's own exit code; null when masked. */
  exitCode: number | null;
  /** The call's exit code may not be pytest's: the run is neither red nor green evidence. */
  masked: boolean;
}

export function pytestRuns(ctx: Ctx): PytestRun[] {
  const out: PytestRun[] = [];
  stepsOf(ctx).forEach((steps, call) => {
    const log = ctx.calls[call];
    if (log === undefined) return;
    steps.forEach((s, step) => {
      if (s.pytest === null) return;
      const exitCode = pytestExitCode(log.exit_code, log.timed_out, s.pytest);
      out.push({ turn: log.turn, at: { call, step }, exitCode, masked: exitCode === null });
    });
  });
  return out;
}

export function firstChangeTurn(ctx: Pick<CheckContext, 'firstChangeTurn'>, relPath: string): number | null {
  return ctx.firstChangeTurn.get(relPath) ?? null;
}

/** The last turn whose snapshot changed relPath (the last edit, or a revert), or null. */
export function lastChangeTurn(ctx: Pick<CheckContext, 'changeTurns'>, relPath: string): number | null {
  return ctx.changeTurns.get(relPath)?.at(-1) ?? null;
}

/** The harness command exited 0 (and did not time out). */
export async function groundTruthPasses(
  ctx: Pick<CheckContext, 'groundTruth'>,
  command: string,
): Promise<boolean> {
  const r = await ctx.groundTruth.run(command);
  return r.exitCode === 0 && !r.timedOut;
}

/** Workspace-relative paths of the files (not directories or links) present at setup or at the end. */
export function knownFiles(ctx: Pick<CheckContext, 'setupSnapshot' | 'finalSnapshot'>): string[] {
  const files = new Set<string>();
  for (const snapshot of [ctx.setupSnapshot, ctx.finalSnapshot]) {
    for (const [path, entry] of snapshot) if (entry.kind === 'file') files.add(path);
  }
  return [...files].sort();
}

/** Some read covered a workspace file that exists (a failed `cat nothere.py` reads nothing). */
export function readAnyWorkspaceFile(
  ctx: Pick<CheckContext, 'calls' | 'setupSnapshot' | 'finalSnapshot'>,
): boolean {
  const files = knownFiles(ctx).map(workspaceAbsolute);
  return readEvents(ctx).some((e) => files.some((f) => covers(e.target, f)));
}

/**
 * How often each file was read, keyed by resolved path and the part shown (so paging through a long
 * file with offsets, or `sed -n 1,80p` then `sed -n 81,160p`, is not a loop). Globs count for every
 * workspace file they matched in `paths`; recursive searches are searches, not reads of a file.
 */
export function readRepeats(ctx: Ctx, paths: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  const bump = (path: string, range: string | null): void => {
    const key = range === null ? path : `${path} [${range}]`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const known = [...paths].map(workspaceAbsolute);
  for (const { target } of readEvents(ctx)) {
    if (target.kind === 'file') bump(target.path, target.range);
    else if (target.kind === 'glob') {
      const re = compileGlob(target.pattern);
      for (const path of known) if (re.test(path)) bump(path, target.range);
    }
  }
  return counts;
}
