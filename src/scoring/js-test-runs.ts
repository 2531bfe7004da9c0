/**
 * The JavaScript counterpart of pytest runs: every JS test or type-check run of a trial, with the
 * same masking rule: a run whose exit code may belong to something else (`|| true`, `; echo`,
 * `| tail`) is neither red nor green evidence.
 */
import type { CheckContext } from '../tasks/types.js';
import { pytestExitCode } from './commands.js';
import { type JsRunKind, jsRunKind } from './js-runners.js';
import type { StepRef } from './ordering.js';
import { parseCommandLine } from './shell-commands.js';

export interface JsRun {
  turn: number;
  at: StepRef;
  kind: JsRunKind;
  /** The runner's own exit code; null when masked, timed out or missing. */
  exitCode: number | null;
  masked: boolean;
}

const runsByCalls = new WeakMap<object, JsRun[]>();

/** Every JS test or type-check run of the trial, in order; steps line up with ordering's StepRef. */
export function jsRuns(ctx: Pick<CheckContext, 'calls'>): JsRun[] {
  const cached = runsByCalls.get(ctx.calls);
  if (cached !== undefined) return cached;
  const out: JsRun[] = [];
  ctx.calls.forEach((log, call) => {
    const command = log.arguments?.command;
    if (
      log.name !== 'execute_command' ||
      log.invalid !== null ||
      typeof command !== 'string' ||
      command === ''
    )
      return;
    parseCommandLine(command, log.cwd).forEach((c, step) => {
      const kind = jsRunKind(c.argv);
      if (kind === null) return;
      // The rule is pytest's, but nothing in it is: the code is the runner's only when the line says so.
      const exitCode = pytestExitCode(log.exit_code, log.timed_out, c.finality);
      out.push({ turn: log.turn, at: { call, step }, kind, exitCode, masked: exitCode === null });
    });
  });
  runsByCalls.set(ctx.calls, out);
  return out;
}
