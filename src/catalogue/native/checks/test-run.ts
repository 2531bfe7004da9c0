/**
 * `test_run`: the model saw the task's tests fail or pass. A run of the runner really happened (the
 * process trace), its own exit code is the verdict the model was shown (src/scoring/runner-runs.ts:
 * `pytest || true` or a summary sent to /dev/null is no evidence), it read the files named, and it
 * came before the first change (or after the last change) of the files it is ordered against.
 * A pass is the project's own verification: no selection of tests, tsc with the project's
 * tsconfig and no weakening options (src/scoring/run-scope.ts).
 */

import { workspaceAbsolute } from '../../../scoring/paths.js';
import { observedExit, runnerRuns } from '../../../scoring/runner-runs.js';
import type { CheckContext, FlagOutcome } from '../../../tasks/types.js';
import type { FlagEntry } from '../flag-entry.js';
import { afterEvery, beforeEvery, changesOf } from './changes.js';

type TestRunSpec = NonNullable<FlagEntry['test_run']>;

/** A failing run is the runner's "tests failed" code: 1 (tsc: 1 or 2); a missing file (4, 127) is none. */
function isResult(spec: TestRunSpec, exit: number | null): boolean {
  if (exit === null) return false;
  if (spec.result === 'pass') return exit === 0;
  return exit === 1 || (spec.runner === 'tsc' && exit === 2);
}

export function testRunCheck(spec: TestRunSpec) {
  const reads = spec.reads.map(workspaceAbsolute);
  const order = spec.before_first_change_of ?? spec.after_last_change_of ?? [];
  const before = spec.before_first_change_of !== undefined;
  const what = `${spec.runner} run${reads.length === 0 ? '' : ` of ${spec.reads.join(', ')}`} that ${spec.result === 'fail' ? 'failed' : 'passed'}`;
  return (ctx: CheckContext): FlagOutcome => {
    const changes = changesOf(ctx, order, before ? 'first' : 'last');
    if (order.length > 0 && changes.length === 0)
      return { reached: false, detail: `${order.join(', ')} never changed` };
    const run = runnerRuns(ctx).find(
      (r) =>
        r.runner === spec.runner &&
        isResult(spec, observedExit(r)) &&
        // A pass counts as verification only when it was the project's whole check (run-scope.ts).
        (spec.result === 'fail' || r.narrowed === null) &&
        reads.every((p) => r.read.has(p)) &&
        (before ? beforeEvery(ctx, r.at, changes) : afterEvery(ctx, r.at, changes)),
    );
    if (run !== undefined) return { reached: true, turn: run.turn };
    const when =
      order.length === 0
        ? ''
        : ` ${before ? 'before the first' : 'after the last'} change of ${order.join(', ')}`;
    return { reached: false, detail: `no ${what} was seen${when}` };
  };
}
