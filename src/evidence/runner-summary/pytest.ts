/**
 * pytest's verdict: the final count line (`=== 3 failed, 2 passed in 0.12s ===`, or bare with -q)
 * plus the names from `FAILED`/`ERROR` summary lines, `ERROR collecting` headers and -v progress
 * lines. Output piped through `grep FAILED` has names but no count line: still a failure seen.
 */
import type { OutputLine } from '../output-lines.js';
import { cutWithin, pushUnique, type SummaryBase, type SummaryReader } from './summary.js';

interface PytestCounts {
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  xfailed: number;
  xpassed: number;
  deselected: number;
  warnings: number;
}

export interface PytestSummary extends SummaryBase {
  runner: 'pytest';
  /** From the final count line (pytest omits zero counts, so absent there means 0); null when no count line was seen. */
  counts: PytestCounts | null;
  /** Node ids (`tests/test_x.py::test_a[1-2]`), in order of appearance, each once. */
  failedTests: string[];
  /** Node ids whose setup or teardown errored. */
  erroredTests: string[];
  /** Paths that failed to import or collect. */
  collectionErrors: string[];
  /** `!!! Interrupted: 1 error during collection !!!`: no test ran. */
  interrupted: boolean;
}

const COUNT_KEYS: Readonly<Record<string, keyof PytestCounts>> = {
  passed: 'passed',
  failed: 'failed',
  error: 'errors',
  errors: 'errors',
  skipped: 'skipped',
  xfailed: 'xfailed',
  xpassed: 'xpassed',
  deselected: 'deselected',
  warning: 'warnings',
  warnings: 'warnings',
};
const COUNT = String.raw`\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)`;
/** pytest < 6 said `in 0.12 seconds`; long runs add `(0:01:01)`. */
const FINAL = new RegExp(
  String.raw`^(?:=+ )?((?:${COUNT})(?:, ${COUNT})*|no tests ran) in \d+(?:\.\d+)?(?:s| seconds)(?: \(\d+:\d\d:\d\d\))?(?: =+)?$`,
);
const INTERRUPTED = /^!+ Interrupted: .* !+$/;
/** Node ids may hold spaces inside their parameter brackets; the message follows ` - `. */
const SUMMARY_NAME = /^(FAILED|ERROR) ([^\s[]+(?:\[.*?\])?)(?= - |$)/;
const COLLECTING = /^_+ ERROR collecting (.+?) _+$/;
/**
 * `tests/x.py::test_a FAILED [ 50%]`. The lookahead fixes the id's first `::` once (a lookahead
 * never backtracks): `\S+::` alone would try every `::` of a line like `a::a::a...`, each time
 * scanning the rest of it. Groups: 2 the id, 3 the outcome.
 */
const PROGRESS = /^(?=(\S+?::))(\1.+?) (FAILED|ERROR)(?: +\[ *\d+%\])?$/;

export const readPytestSummary: SummaryReader<PytestSummary> = (lines) => {
  const finals: number[] = [];
  lines.forEach((line, i) => {
    if (!line.fragment && FINAL.test(line.text.trim())) finals.push(i);
  });
  const last = finals.at(-1) ?? -1;
  // Failures after the last count line belong to a later run that printed no count line.
  const trailing = namesIn(lines, last + 1, lines.length);
  if (trailing.seen || last < 0) {
    return trailing.seen ? summary(null, trailing, lines, last + 1, lines.length) : null;
  }
  const start = (finals.at(-2) ?? -1) + 1;
  return summary(countsOf(lines[last]?.text ?? ''), namesIn(lines, start, last), lines, start, last + 1);
};

interface Names {
  seen: boolean;
  failedTests: string[];
  erroredTests: string[];
  collectionErrors: string[];
  interrupted: boolean;
}

function namesIn(lines: readonly OutputLine[], from: number, to: number): Names {
  const names: Names = {
    seen: false,
    failedTests: [],
    erroredTests: [],
    collectionErrors: [],
    interrupted: false,
  };
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (line === undefined || line.fragment) continue;
    const text = line.text.trim();
    const summaryName = SUMMARY_NAME.exec(text);
    const progress = summaryName === null ? PROGRESS.exec(text) : null;
    const kind = summaryName?.[1] ?? progress?.[3];
    const id = summaryName?.[2] ?? progress?.[2];
    const collecting = COLLECTING.exec(text)?.[1];
    if (kind !== undefined && id !== undefined) {
      if (kind === 'FAILED') pushUnique(names.failedTests, id);
      else if (id.includes('::')) pushUnique(names.erroredTests, id);
      else pushUnique(names.collectionErrors, id);
    } else if (collecting !== undefined) {
      pushUnique(names.collectionErrors, collecting);
    } else if (INTERRUPTED.test(text)) {
      names.interrupted = true;
    } else continue;
    names.seen = true;
  }
  return names;
}

function countsOf(line: string): PytestCounts {
  const counts: PytestCounts = {
    passed: 0,
    failed: 0,
    errors: 0,
    skipped: 0,
    xfailed: 0,
    xpassed: 0,
    deselected: 0,
    warnings: 0,
  };
  // Counts start where a number starts: from inside one, each digit would rescan the rest.
  for (const m of line.matchAll(/(?<!\d)(\d+) (\w+)/g)) {
    const key = COUNT_KEYS[m[2] ?? ''];
    if (key !== undefined) counts[key] += Number(m[1]);
  }
  return counts;
}

function summary(
  counts: PytestCounts | null,
  names: Names,
  lines: readonly OutputLine[],
  from: number,
  to: number,
): PytestSummary {
  const { seen: _, ...lists } = names;
  const failedShown =
    counts === null
      ? lists.failedTests.length + lists.erroredTests.length + lists.collectionErrors.length > 0
      : counts.failed + counts.errors > 0;
  const verdict =
    failedShown || lists.interrupted ? 'failed' : (counts?.passed ?? 0) > 0 ? 'passed' : 'no-tests';
  return { runner: 'pytest', verdict, cut: cutWithin(lines, from, to), counts, ...lists };
}
