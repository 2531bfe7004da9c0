/**
 * The JavaScript counterpart of pytest runs: every JS test or type-check run of a trial that really
 * ran (process trace), with the runner's exit code as evidence only when the model saw a verdict
 * that agrees with it (runner-runs.ts).
 */
import type { CheckContext } from '../tasks/types.js';
import type { JsRunKind } from './js-runners.js';
import type { StepRef } from './ordering.js';
import { observedExit, runnerRuns } from './runner-runs.js';

export interface JsRun {
  turn: number;
  at: StepRef;
  kind: JsRunKind;
  /** The runner's own exit code, when the model saw a verdict that agrees with it; null otherwise. */
  exitCode: number | null;
  masked: boolean;
  /** Workspace files the runner read: which tests (or sources) it ran. */
  read: ReadonlySet<string>;
  /** Why it was not the project's whole verification (run-scope.ts); null when it was. */
  narrowed: string | null;
}

/** Every JS test or type-check run of the trial, in order; steps line up with ordering's StepRef. */
export function jsRuns(ctx: Pick<CheckContext, 'calls' | 'declaredWrites'>): JsRun[] {
  return runnerRuns(ctx)
    .filter((r) => r.runner !== 'pytest')
    .map((r) => {
      const exitCode = observedExit(r);
      return {
        turn: r.turn,
        at: r.at,
        kind: r.runner === 'tsc' ? 'typecheck' : 'test',
        exitCode,
        masked: exitCode === null,
        read: r.read,
        narrowed: r.narrowed,
      };
    });
}
