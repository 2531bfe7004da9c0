/**
 * What a test runner's own output told the model: the verdict of the last run found in the text.
 * These readers see text only, so `echo "3 failed, 2 passed in 0.1s"` reads like a pytest run;
 * whether a runner really ran is decided from the process trace, elsewhere.
 */
import type { OutputLine } from '../output-lines.js';

/**
 * `failed`: a failure or error was shown. `passed`: the runner's summary showed passing tests and
 * no failure. `no-tests`: a summary counting nothing that passed or failed. `unknown`: nothing
 * decides it (tsc prints nothing on success).
 */
type Verdict = 'failed' | 'passed' | 'no-tests' | 'unknown';

export interface SummaryBase {
  verdict: Verdict;
  /** The harness cut the middle of this run's output, so the lists of names may be incomplete. */
  cut: boolean;
}

/** Finds one runner's last summary in the lines of a tool output; null when there is none. */
export type SummaryReader<S extends SummaryBase> = (lines: readonly OutputLine[]) => S | null;

/** True when any line in [from, to) follows a cut. */
export function cutWithin(lines: readonly OutputLine[], from: number, to: number): boolean {
  for (let i = Math.max(0, from); i < Math.min(to, lines.length); i++) if (lines[i]?.cutBefore) return true;
  return false;
}

/** Adds `item` unless already present: runners print a failing name in several places. */
export function pushUnique(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}
