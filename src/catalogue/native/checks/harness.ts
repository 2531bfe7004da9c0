/**
 * Checks the harness runs itself after the agent's last turn, as the checker on the staged copy of
 * the workspace with the hidden files beside it (src/agent/evaluate.ts):
 * - `harness_tests`: a test run whose runner's own summary must count only passes (as many as
 *   `tests`), built so that nothing left in the workspace can steer it (pytest-run.ts,
 *   node-test-run.ts);
 * - `harness`: a command and the exit code it must give, as a skill manifest's harness_checks, so
 *   only after some work (a do-nothing agent never passes a command that holds on the untouched
 *   workspace).
 */

import { didWork } from '../../../manifest/command-flags.js';
import { shellQuote } from '../../../manifest/shell-quote.js';
import { groundTruthPasses, type HarnessRun } from '../../../scoring/check-helpers.js';
import { harnessNodeTest } from '../../../scoring/node-test-run.js';
import { harnessPytest } from '../../../scoring/pytest-run.js';
import { type CheckContext, type FlagOutcome, HIDDEN_DIR } from '../../../tasks/types.js';
import type { FlagEntry } from '../flag-entry.js';
import { HIDDEN_FILES_DIR } from '../layout.js';

type HarnessTestsSpec = NonNullable<FlagEntry['harness_tests']>;
type HarnessSpec = NonNullable<FlagEntry['harness']>;

/** `hidden/x` is the hidden file, where the harness places it; a plain path stays a word as it is. */
function target(path: string): string {
  const abs = path.startsWith(`${HIDDEN_FILES_DIR}/`)
    ? `${HIDDEN_DIR}/${path.slice(HIDDEN_FILES_DIR.length + 1)}`
    : path;
  return /^[A-Za-z0-9_./@+-]+$/.test(abs) ? abs : shellQuote(abs);
}

function harnessRun(spec: HarnessTestsSpec): HarnessRun {
  const targets = spec.files.map(target).join(' ');
  if (spec.runner === 'node:test') return harnessNodeTest(targets, spec.tests);
  return { ...harnessPytest(targets), ...(spec.tests === undefined ? {} : { expected: spec.tests }) };
}

export function harnessTestsCheck(spec: HarnessTestsSpec) {
  const run = harnessRun(spec);
  return async (ctx: CheckContext): Promise<FlagOutcome> =>
    (await groundTruthPasses(ctx, run))
      ? { reached: true, turn: null }
      : { reached: false, detail: 'the harness test run fails' };
}

export function harnessCheck(spec: HarnessSpec) {
  return async (ctx: CheckContext): Promise<FlagOutcome> => {
    if (!didWork(ctx)) return { reached: false, detail: 'no valid tool call was made' };
    const r = await ctx.groundTruth.run(spec.command);
    return r.exitCode === spec.exit_code && !r.timedOut
      ? { reached: true, turn: null }
      : { reached: false, detail: `\`${spec.command}\` exited ${r.exitCode ?? 'without a code'}` };
  };
}
