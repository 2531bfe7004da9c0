/**
 * The verdict a test runner printed, found in the text a model received from one tool call. One
 * reader per runner in ./runner-summary/, all with one signature; adding a runner is one file and
 * one line here. The caller names the runner (the process trace says what ran): the readers do not
 * guess it, since an output may mention several.
 */
import { outputLines } from './output-lines.js';
import { type NodeTestSummary, readNodeTestSummary } from './runner-summary/node-test.js';
import { type PytestSummary, readPytestSummary } from './runner-summary/pytest.js';
import type { SummaryReader } from './runner-summary/summary.js';
import { readTscSummary, type TscSummary } from './runner-summary/tsc.js';

export type { NodeTestSummary } from './runner-summary/node-test.js';
export type { PytestSummary } from './runner-summary/pytest.js';

export type { TscSummary } from './runner-summary/tsc.js';

export type RunnerSummary = PytestSummary | NodeTestSummary | TscSummary;
export type RunnerName = RunnerSummary['runner'];
export type SummaryOf<R extends RunnerName> = Extract<RunnerSummary, { runner: R }>;

const READERS: { readonly [R in RunnerName]: SummaryReader<SummaryOf<R>> } = {
  pytest: readPytestSummary,
  'node:test': readNodeTestSummary,
  tsc: readTscSummary,
};

/**
 * The last `runner` summary in `text` (stdout and stderr as shown, cut markers and all); null when
 * there is none, except for tsc, whose silence is a summary of its own (verdict `unknown`).
 * `npm test` and similar wrappers need nothing: their lines are ignored.
 */
export function readRunnerSummary<R extends RunnerName>(runner: R, text: string): SummaryOf<R> | null {
  const reader: SummaryReader<SummaryOf<R>> = READERS[runner];
  return reader(outputLines(text));
}
