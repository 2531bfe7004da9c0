/**
 * node:test's verdict, from either reporter: which one is the default depends on the node version
 * and on whether stdout is a terminal (node 20: TAP when piped, spec on a TTY; node 23+: spec).
 * Both end a run with the same counts, `# tests 5` (TAP) or `ℹ tests 5` (spec); failing tests are
 * `not ok 2 - name` in TAP, `✖ name (1.2ms)` in spec, where node 20+ repeats them after the counts
 * under `✖ failing tests:`.
 */
import type { OutputLine } from '../output-lines.js';
import { cutWithin, pushUnique, type SummaryBase, type SummaryReader } from './summary.js';

interface NodeTestCounts {
  tests: number;
  passed: number;
  failed: number;
  /** null when the reporter did not print the count (older node versions). */
  suites: number | null;
  cancelled: number | null;
  skipped: number | null;
  todo: number | null;
}

export interface NodeTestSummary extends SummaryBase {
  runner: 'node:test';
  reporter: 'tap' | 'spec';
  /** null when no count block was seen (e.g. output piped through `grep "not ok"`). */
  counts: NodeTestCounts | null;
  /** Names of failing tests (not of the suites around them), each once. */
  failedTests: string[];
}

const COUNT_LINE = /^(#|ℹ) (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) (\d+(?:\.\d+)?)$/;
// `s`: what follows a name is anything, so `$` cannot fail there and send the lazy name back over
// the line once per ` # TODO` (lines are the model's output).
const TAP_NOT_OK = /^(\s*)not ok \d+ - (.*?)(?: # (TODO|SKIP)\b.*)?$/s;
/** A subtest list's plan; a `not ok` right after one belongs to the parent (a suite). */
const TAP_PLAN = /^\s+1\.\.\d+$/;
const SPEC_FAIL = /^(\s*)✖ (.+?) \(\d+(?:\.\d+)?m?s\)( # TODO\b.*)?$/s;
const SPEC_SUITE = /^(\s*)▶ (.+)$/;
const FAILING_HEADER = '✖ failing tests:';

interface Block {
  start: number;
  end: number;
  reporter: 'tap' | 'spec';
  counts: NodeTestCounts;
}

export const readNodeTestSummary: SummaryReader<NodeTestSummary> = (lines) => {
  const blocks = countBlocks(lines);
  const last = blocks.at(-1);
  const afterLast = last === undefined ? 0 : skipFailingSection(lines, last.end);
  // Failures after the last block's own section belong to a later run that printed no counts.
  const trailing = failuresIn(lines, afterLast, lines.length);
  if (last === undefined || trailing.names.length > 0) {
    if (trailing.names.length === 0) return null;
    return {
      runner: 'node:test',
      reporter: trailing.reporter,
      verdict: 'failed',
      cut: cutWithin(lines, afterLast, lines.length),
      counts: null,
      failedTests: trailing.names,
    };
  }
  const previous = blocks.at(-2);
  const start = previous === undefined ? 0 : skipFailingSection(lines, previous.end);
  const section = failuresIn(lines, last.end, afterLast);
  const inline = failuresIn(lines, start, last.start);
  const { failed, cancelled, passed } = last.counts;
  return {
    runner: 'node:test',
    reporter: last.reporter,
    verdict: failed + (cancelled ?? 0) > 0 ? 'failed' : passed > 0 ? 'passed' : 'no-tests',
    cut: cutWithin(lines, start, afterLast),
    counts: last.counts,
    // The failing-tests section lists leaf tests only, so it is the better list when present.
    failedTests: section.names.length > 0 ? section.names : inline.names,
  };
};

function countBlocks(lines: readonly OutputLine[]): Block[] {
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = countLine(lines[i]);
    if (first?.key !== 'tests') continue;
    const values = new Map<string, number>();
    let end = i;
    // The block runs while lines keep the same marker and no key repeats (a repeat is the next run).
    for (let c: CountLine | null = first; c?.marker === first.marker && !values.has(c.key); ) {
      values.set(c.key, c.value);
      c = countLine(lines[++end]);
    }
    const [tests, passed, failed] = [values.get('tests'), values.get('pass'), values.get('fail')];
    if (tests !== undefined && passed !== undefined && failed !== undefined) {
      const reporter = first.marker === '#' ? 'tap' : 'spec';
      const optional = (key: string) => values.get(key) ?? null;
      blocks.push({
        start: i,
        end,
        reporter,
        counts: {
          tests,
          passed,
          failed,
          suites: optional('suites'),
          cancelled: optional('cancelled'),
          skipped: optional('skipped'),
          todo: optional('todo'),
        },
      });
    }
    i = end - 1;
  }
  return blocks;
}

interface CountLine {
  marker: string;
  key: string;
  value: number;
}

function countLine(line: OutputLine | undefined): CountLine | null {
  if (line === undefined || line.fragment) return null;
  const m = COUNT_LINE.exec(line.text.trim());
  return m === null ? null : { marker: m[1] ?? '', key: m[2] ?? '', value: Number(m[3]) };
}

/** Index just past the `✖ failing tests:` section starting at `from`, or `from` when there is none. */
function skipFailingSection(lines: readonly OutputLine[], from: number): number {
  let i = from;
  while (i < lines.length && lines[i]?.text.trim() === '') i++;
  if (lines[i]?.text.trim() !== FAILING_HEADER) return from;
  for (i++; i < lines.length; i++) {
    const text = lines[i]?.text ?? '';
    const inSection =
      text.trim() === '' || /^\s/.test(text) || text.startsWith('test at ') || text.startsWith('✖ ');
    if (!inSection) break;
  }
  return i;
}

function failuresIn(
  lines: readonly OutputLine[],
  from: number,
  to: number,
): { names: string[]; reporter: 'tap' | 'spec' } {
  const names: string[] = [];
  let reporter: 'tap' | 'spec' = 'spec';
  const suites = new Set<string>();
  let previousText = '';
  for (let i = from; i < to; i++) {
    const line = lines[i];
    if (line === undefined) continue;
    const text = line.text;
    if (!line.fragment) {
      const tap = TAP_NOT_OK.exec(text);
      const spec = tap === null ? SPEC_FAIL.exec(text) : null;
      const suite = SPEC_SUITE.exec(text);
      if (suite !== null) suites.add(`${suite[1]}${suite[2]}`);
      if (tap !== null && tap[3] !== 'TODO' && !TAP_PLAN.test(previousText)) {
        reporter = 'tap';
        pushUnique(names, unescapeTap(tap[2] ?? ''));
      } else if (spec !== null && spec[3] === undefined && !suites.has(`${spec[1]}${spec[2]}`)) {
        if (spec[2] !== undefined) pushUnique(names, spec[2]);
      }
    }
    if (text.trim() !== '') previousText = text;
  }
  return { names, reporter };
}

/** TAP escapes `#` and `\` in names. */
function unescapeTap(name: string): string {
  return name.replace(/\\([#\\])/g, '$1');
}
