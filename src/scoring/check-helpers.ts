/** Building blocks for task checks: reads, pytest runs, file changes and ground truth, from a CheckContext. */

import { type RunnerName, type RunnerSummary, readRunnerSummary } from '../evidence/runner-summary.js';
import type { CheckContext } from '../tasks/types.js';
import { compileGlob } from './glob.js';
import { type StepRef, stepsOf } from './ordering.js';
import { workspaceAbsolute } from './paths.js';
import type { ReadTarget } from './read-target.js';
import { observedExit, runnerRuns } from './runner-runs.js';
import { readsOf } from './seen.js';

type Ctx = Pick<CheckContext, 'calls'>;

interface ReadEvent {
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

export interface PytestRun {
  turn: number;
  at: StepRef;
  /** pytest's own exit code, when the model saw a verdict that agrees with it; null otherwise. */
  exitCode: number | null;
  /** The run is neither red nor green evidence (no verdict reached the model, or it disagrees). */
  masked: boolean;
  /** Workspace files pytest read: which tests it ran (and which modules they imported). */
  read: ReadonlySet<string>;
  /** pytest's verdict as the model saw it. */
  seen: RunnerSummary | null;
}

/** Every pytest run of the trial that really ran (process trace), in order. */
export function pytestRuns(ctx: Ctx): PytestRun[] {
  return runnerRuns(ctx)
    .filter((r) => r.runner === 'pytest')
    .map((r) => {
      const exitCode = observedExit(r);
      return { turn: r.turn, at: r.at, exitCode, masked: exitCode === null, read: r.read, seen: r.seen };
    });
}

export function firstChangeTurn(ctx: Pick<CheckContext, 'firstChangeTurn'>, relPath: string): number | null {
  return ctx.firstChangeTurn.get(relPath) ?? null;
}

/** The last turn whose snapshot changed relPath (the last edit, or a revert), or null. */
export function lastChangeTurn(ctx: Pick<CheckContext, 'changeTurns'>, relPath: string): number | null {
  return ctx.changeTurns.get(relPath)?.at(-1) ?? null;
}

/** A test run of the harness, and the runner whose own report must say it passed. */
export interface HarnessRun {
  command: string;
  runner: RunnerName;
  /** Tests the run must have executed and passed; at least one when not given. */
  expected?: number;
}

/**
 * The harness command exited 0 (and did not time out). For a test run, exit 0 is not enough: the
 * runner's own summary must be there and count only passes (as many as expected). Code of the
 * agent's that ends the process early (`os._exit(0)` at import, `process.exit(0)` in the function
 * under test) leaves no such summary, or too few tests in it, and fails.
 */
export async function groundTruthPasses(
  ctx: Pick<CheckContext, 'groundTruth'>,
  run: string | HarnessRun,
): Promise<boolean> {
  const r = await ctx.groundTruth.run(typeof run === 'string' ? run : run.command);
  if (r.exitCode !== 0 || r.timedOut) return false;
  return typeof run === 'string' || reportPasses(run, `${r.stdout}\n${r.stderr}`);
}

function reportPasses(run: HarnessRun, output: string): boolean {
  const summary = readRunnerSummary(run.runner, output);
  if (summary === null) return false;
  const enough = (passed: number): boolean =>
    run.expected === undefined ? passed >= 1 : passed === run.expected;
  if (summary.runner === 'pytest') {
    const c = summary.counts;
    return c !== null && c.failed === 0 && c.errors === 0 && c.xpassed === 0 && enough(c.passed);
  }
  if (summary.runner === 'node:test') {
    const c = summary.counts;
    return (
      c !== null && c.failed === 0 && (c.cancelled ?? 0) === 0 && c.passed === c.tests && enough(c.passed)
    );
  }
  return summary.errors === 0;
}

/** Workspace-relative paths of the files (not directories or links) present at setup or at the end. */
export function knownFiles(ctx: Pick<CheckContext, 'setupSnapshot' | 'finalSnapshot'>): string[] {
  const files = new Set<string>();
  for (const snapshot of [ctx.setupSnapshot, ctx.finalSnapshot]) {
    for (const [path, entry] of snapshot) if (entry.kind === 'file') files.add(path);
  }
  return [...files].sort();
}

/** The model was shown at least one substantive line of one of the task's files. */
export function readAnyWorkspaceFile(ctx: Pick<CheckContext, 'calls' | 'setupFiles'>): boolean {
  return [...ctx.setupFiles.keys()].some((path) => readsOf(ctx, workspaceAbsolute(path)).length > 0);
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
