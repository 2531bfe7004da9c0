/**
 * Crafted trials for the JavaScript tasks, where test runs are judged on the process trace: a node
 * test call is a traced command whose runner read the given files and exited with its own code, the
 * model shown TAP counts; ground truth prints node's TAP summary (the harness requires it).
 */

import { isDifferentialScript } from '../../src/kit/differential-run.js';
import type { ToolCallLog } from '../../src/results/trial.js';
import type { CheckContext } from '../../src/tasks/types.js';
import { proc, traced } from '../scoring/call-fixtures.js';

export const tapCounts = (tests: number, pass: number): string =>
  `1..${tests}\n# tests ${tests}\n# suites 0\n# pass ${pass}\n# fail ${tests - pass}\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms 41.2\n`;

/**
 * A traced `node --test` run that read `reads` (absolute) and exited `exit`. What the model saw:
 * `stdout`, or TAP counts with, for a failing run, one test that failed in its body.
 */
export function nodeTestCall(
  command: string,
  o: { exit: number; reads: string[]; tests?: number; stdout?: string },
): ToolCallLog {
  const tests = o.tests ?? 4;
  const failed =
    o.exit === 0 ? '' : "not ok 1 - single pages and ranges\n  ---\n  code: 'ERR_ASSERTION'\n  ...\n";
  return traced(command, {
    exit: o.exit,
    stdout: o.stdout ?? `TAP version 13\n${failed}${tapCounts(tests, o.exit === 0 ? tests : tests - 1)}`,
    processes: [proc(['node', '--test'], { exit: o.exit, reads: o.reads })],
  });
}

/** Ground truth whose runs print node's TAP summary: everything passes exactly when the fake says so. */
export function withTap(ctx: CheckContext, tests = 4): CheckContext {
  const inner = ctx.groundTruth;
  return {
    ...ctx,
    groundTruth: {
      ...inner,
      async run(command) {
        const r = await inner.run(command);
        if (isDifferentialScript(command)) return r;
        return { ...r, stdout: `TAP version 13\n${tapCounts(tests, r.exitCode === 0 ? tests : tests - 1)}` };
      },
    },
  };
}
