/**
 * Process checks the JS/TS tasks share: read a file before changing it, see the suite (or tsc) red
 * before the first change, see it green after the last one. Runs are JS test or type-check runs
 * (src/scoring/js-test-runs.ts); a masked run never counts.
 */
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { firstChangeTurn, lastChangeTurn, readsCovering } from '../../src/scoring/check-helpers.js';
import type { JsRunKind } from '../../src/scoring/js-runners.js';
import { type JsRun, jsRuns } from '../../src/scoring/js-test-runs.js';
import { afterChange, beforeChange } from '../../src/scoring/ordering.js';
import type { CheckContext, FlagOutcome } from '../../src/tasks/types.js';

export const miss = (detail: string): FlagOutcome => ({ reached: false, detail });

/** node:test reports failing tests with 1; tsc reports errors with 1 or 2. Not found (127) is not red. */
export function isRed(run: JsRun): boolean {
  return run.kind === 'test' ? run.exitCode === 1 : run.exitCode === 1 || run.exitCode === 2;
}

/** relPath was read by name (read_file, cat, sed…) before it first changed. */
export function readBeforeChange(ctx: CheckContext, relPath: string): FlagOutcome {
  const edit = firstChangeTurn(ctx, relPath);
  const read = readsCovering(ctx, `${WORKSPACE_DIR}/${relPath}`, { searches: false }).find(
    (e) => edit === null || beforeChange(ctx, e.at, relPath, edit),
  );
  return read === undefined
    ? miss(`${relPath} was not read before it was changed`)
    : { reached: true, turn: read.turn };
}

/**
 * An unmasked run of `kind` matching `wanted` before the first change of any of relPaths. When none
 * of them changed there is nothing to be before, and the flag is not reached.
 */
export function runBeforeFirstChange(
  ctx: CheckContext,
  relPaths: readonly string[],
  kind: JsRunKind,
  wanted: (run: JsRun) => boolean,
): FlagOutcome {
  const edits = relPaths.flatMap((path) => {
    const turn = firstChangeTurn(ctx, path);
    return turn === null ? [] : [{ path, turn }];
  });
  if (edits.length === 0) return miss(`${relPaths.join(', ')} never changed`);
  const run = jsRuns(ctx).find(
    (r) => r.kind === kind && wanted(r) && edits.every((e) => beforeChange(ctx, r.at, e.path, e.turn)),
  );
  return run === undefined
    ? miss(`no unmasked ${kind} run of the expected result before the first change`)
    : { reached: true, turn: run.turn };
}

/** An unmasked passing run of `kind` after the last change of every changed relPath, which the harness confirms. */
export async function greenAfterLastChange(
  ctx: CheckContext,
  relPaths: readonly string[],
  kind: JsRunKind,
  confirm: () => Promise<boolean>,
): Promise<FlagOutcome> {
  const edits = relPaths.flatMap((path) => {
    const turn = lastChangeTurn(ctx, path);
    return turn === null ? [] : [{ path, turn }];
  });
  if (edits.length === 0) return miss(`${relPaths.join(', ')} never changed`);
  const green = jsRuns(ctx).find(
    (r) => r.kind === kind && r.exitCode === 0 && edits.every((e) => afterChange(ctx, r.at, e.path, e.turn)),
  );
  if (green === undefined) return miss(`no unmasked passing ${kind} run after the last change`);
  if (!(await confirm())) return miss('the run passed but the harness run fails');
  return { reached: true, turn: green.turn };
}
