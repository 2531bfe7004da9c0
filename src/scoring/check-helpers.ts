/** Building blocks for task checks: reads, pytest runs, file changes and ground truth, from a CheckContext. */

import { type RunnerName, type RunnerSummary, readRunnerSummary } from '../evidence/runner-summary.js';
import type { ToolCallLog } from '../results/trial.js';
import type { CheckContext } from '../tasks/types.js';
import type { StepRef } from './ordering.js';
import { resolvePath, workspaceAbsolute } from './paths.js';
import { observedExit, runnerRuns } from './runner-runs.js';
import { readsOf } from './seen.js';

type Ctx = Pick<CheckContext, 'calls' | 'declaredWrites'>;

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
  /** Why it was not the whole suite (run-scope.ts); null when it was. */
  narrowed: string | null;
}

/** Every pytest run of the trial that really ran (process trace), in order. */
export function pytestRuns(ctx: Ctx): PytestRun[] {
  return runnerRuns(ctx)
    .filter((r) => r.runner === 'pytest')
    .map((r) => {
      const exitCode = observedExit(r);
      return {
        turn: r.turn,
        at: r.at,
        exitCode,
        masked: exitCode === null,
        read: r.read,
        seen: r.seen,
        narrowed: r.narrowed,
      };
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
export function readAnyWorkspaceFile(
  ctx: Pick<CheckContext, 'calls' | 'setupFiles' | 'changeTurns'>,
): boolean {
  return [...ctx.setupFiles.keys()].some((path) => readsOf(ctx, workspaceAbsolute(path)).length > 0);
}

/** Fewer substantive lines shown than this (unless that is the whole file) is a search hit, not a read. */
const READ_MIN_LINES = 5;

/**
 * Read loops, judged on what the model was shown: for each file and each content it held (a change
 * starts a new one, file-versions.ts), the most calls that showed it any one same line, counting
 * only calls that showed a real part of it (READ_MIN_LINES, or all of a smaller file). Paging
 * through a file (`sed -n 1,80p`, then `81,160p`, read_file with offsets), reading it again after
 * it changed, or searches that print a line or two of it are no loop; the same part shown again and
 * again, by whatever commands, is. A call counts for a file only when it took its lines from that
 * file (read_file of it, or a traced process that opened it): modules sharing boilerplate do not
 * read each other. Keyed by workspace path, with the turn of the change a later content began in.
 */
export function readRepeats(
  ctx: Pick<CheckContext, 'calls' | 'setupFiles' | 'changeTurns'>,
  paths: Iterable<string>,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const byVersion = new Map<object, Map<number, number>>();
    const keys = new Map<object, string>();
    const abs = workspaceAbsolute(path);
    for (const read of readsOf(ctx, abs)) {
      if (!tookFrom(ctx.calls[read.at.call], abs)) continue;
      const lines = read.shown.lines.filter((n) => read.shown.substantive.includes(n));
      if (lines.length < Math.min(READ_MIN_LINES, read.shown.substantive.length)) continue;
      const perLine = byVersion.get(read.version) ?? new Map<number, number>();
      for (const n of lines) perLine.set(n, (perLine.get(n) ?? 0) + 1);
      byVersion.set(read.version, perLine);
      const from = read.version.from;
      keys.set(
        read.version,
        from === null ? path : `${path} (as changed in turn ${ctx.calls[from.call]?.turn})`,
      );
    }
    for (const [version, perLine] of byVersion)
      counts.set(keys.get(version) ?? path, Math.max(0, ...perLine.values()));
  }
  return counts;
}

/** The call read the file itself: read_file of it, or a traced process that opened it. */
function tookFrom(call: ToolCallLog | undefined, abs: string): boolean {
  if (call === undefined) return false;
  if (call.name === 'read_file')
    return typeof call.arguments?.path === 'string' && resolvePath(call.cwd, call.arguments.path) === abs;
  return call.processes?.some((p) => p.reads.includes(abs)) ?? false;
}
