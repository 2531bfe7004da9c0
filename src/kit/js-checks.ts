/**
 * Process checks the JS/TS tasks share: read a file before changing it, see the suite (or tsc) red
 * before the first change, see it green after the last one. Runs are JS test or type-check runs
 * (src/scoring/js-test-runs.ts); a masked run never counts.
 */
import { WORKSPACE_DIR } from '../sandbox/types.js';
import { firstChangeTurn, lastChangeTurn } from '../scoring/check-helpers.js';
import type { JsRunKind } from '../scoring/js-runners.js';
import { type JsRun, jsRuns } from '../scoring/js-test-runs.js';
import { afterChange, beforeChange } from '../scoring/ordering.js';
import { firstRead, type ReadNeed } from '../scoring/seen.js';
import type { CheckContext, FlagOutcome } from '../tasks/types.js';

export const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** node:test reports failing tests with 1; tsc reports errors with 1 or 2. Not found (127) is not red. */
export function isRed(run: JsRun): boolean {
  return run.kind === 'test' ? run.exitCode === 1 : run.exitCode === 1 || run.exitCode === 2;
}

/** relPath was shown to the model (by any command, or read_file) before it first changed; see ReadNeed. */
export function readBeforeChange(ctx: CheckContext, relPath: string, need: ReadNeed = {}): FlagOutcome {
  const edit = firstChangeTurn(ctx, relPath);
  const read = firstRead(
    ctx,
    `${WORKSPACE_DIR}/${relPath}`,
    need,
    (at) => edit === null || beforeChange(ctx, at, relPath, edit),
  );
  return read === undefined
    ? miss(`${relPath} was not read before it was changed`)
    : { reached: true, turn: read.turn };
}

/**
 * A run of `kind` matching `wanted` before the first change of any of relPaths. When none of them
 * changed there is nothing to be before, and the flag is not reached. The run must have read every
 * file of `reads` (default relPaths): the task's own tests and sources, not something else.
 */
export function runBeforeFirstChange(
  ctx: CheckContext,
  relPaths: readonly string[],
  kind: JsRunKind,
  wanted: (run: JsRun) => boolean,
  reads: readonly string[] = relPaths,
): FlagOutcome {
  const edits = relPaths.flatMap((path) => {
    const turn = firstChangeTurn(ctx, path);
    return turn === null ? [] : [{ path, turn }];
  });
  if (edits.length === 0) return miss(`${relPaths.join(', ')} never changed`);
  const run = jsRuns(ctx).find(
    (r) =>
      r.kind === kind &&
      wanted(r) &&
      readAll(r, reads) &&
      edits.every((e) => beforeChange(ctx, r.at, e.path, e.turn)),
  );
  return run === undefined
    ? miss(`no ${kind} run of the task's files with the expected result seen before the first change`)
    : { reached: true, turn: run.turn };
}

/**
 * A passing run of `kind` seen after the last change of every changed relPath, which read every file
 * of `reads` (default relPaths), was the project's whole check (no test selection, tsc with the
 * project's own tsconfig: src/scoring/run-scope.ts) and which the harness confirms.
 */
export async function greenAfterLastChange(
  ctx: CheckContext,
  relPaths: readonly string[],
  kind: JsRunKind,
  confirm: () => Promise<boolean>,
  reads: readonly string[] = relPaths,
): Promise<FlagOutcome> {
  const edits = relPaths.flatMap((path) => {
    const turn = lastChangeTurn(ctx, path);
    return turn === null ? [] : [{ path, turn }];
  });
  if (edits.length === 0) return miss(`${relPaths.join(', ')} never changed`);
  const green = jsRuns(ctx).find(
    (r) =>
      r.kind === kind &&
      r.exitCode === 0 &&
      r.narrowed === null &&
      readAll(r, reads) &&
      edits.every((e) => afterChange(ctx, r.at, e.path, e.turn)),
  );
  if (green === undefined)
    return miss(`no passing ${kind} run of the task's files seen after the last change`);
  if (!(await confirm())) return miss('the run passed but the harness run fails');
  return { reached: true, turn: green.turn };
}

function readAll(run: JsRun, relPaths: readonly string[]): boolean {
  return relPaths.every((p) => run.read.has(`${WORKSPACE_DIR}/${p}`));
}
