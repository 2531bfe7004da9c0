/**
 * Questions asked of shown lines: was enough of the file shown, were these lines shown. Only
 * substantive lines are asked about, since blank and trivial lines are evidence only inside a run
 * (shown-lines.ts): a function whose closing `}` scrolled away was still read.
 */
import { InternalError } from '../util/errors.js';
import { fileLines } from './line-kind.js';
import type { ShownLines } from './shown-lines.js';

/** 1-based, inclusive. */
export interface LineRange {
  from: number;
  to: number;
}

export interface Coverage {
  /** Substantive lines asked about that were shown. */
  shown: number;
  /** Substantive lines asked about. */
  asked: number;
  /** shown / asked; 1 when nothing substantive was asked about (an empty file is read by anything). */
  fraction: number;
  /** 1-based substantive lines asked about and not shown, ascending. */
  missing: number[];
}

export interface ShownRequirement {
  /** Fraction (0..1) of the lines asked about that must have been shown; default 1 (all). */
  atLeast?: number;
  /** The lines asked about (1-based), e.g. from blockAt or linesMatching; default the whole file. */
  lines?: readonly number[] | LineRange;
}

export function coverage(shown: ShownLines, lines?: readonly number[] | LineRange): Coverage {
  const seen = new Set(shown.lines);
  const asked = lines === undefined ? shown.substantive : substantiveAmong(shown, lines);
  const missing = asked.filter((n) => !seen.has(n));
  const count = asked.length - missing.length;
  return {
    shown: count,
    asked: asked.length,
    fraction: asked.length === 0 ? 1 : count / asked.length,
    missing,
  };
}

export function wasShown(shown: ShownLines, requirement: ShownRequirement = {}): boolean {
  return coverage(shown, requirement.lines).fraction >= (requirement.atLeast ?? 1);
}

/** Lines shown by any of several calls on the same file content (a read in parts). */
export function unionShown(first: ShownLines, ...rest: readonly ShownLines[]): ShownLines {
  const all = new Set(first.lines);
  for (const other of rest) {
    // Line numbers of two different contents do not name the same lines.
    if (other.fileLines !== first.fileLines || other.substantive.length !== first.substantive.length)
      throw new InternalError('unionShown: the shown lines were computed on different file contents');
    for (const n of other.lines) all.add(n);
  }
  return { ...first, lines: [...all].sort((a, b) => a - b) };
}

/** Ascending line numbers as maximal runs: [1,2,3,7] → 1–3, 7–7. */
export function lineRanges(lines: readonly number[]): LineRange[] {
  const ranges: LineRange[] = [];
  for (const n of lines) {
    const last = ranges.at(-1);
    if (last !== undefined && n === last.to + 1) last.to = n;
    else ranges.push({ from: n, to: n });
  }
  return ranges;
}

/** What a line is tested with: a RegExp, or a manifest's pattern (a LinearRegExp). */
type LinePattern = RegExp | { test(line: string): boolean };

/** 1-based numbers of the lines matching `pattern` (tested per line, without its line end). */
export function linesMatching(fileContent: string, pattern: LinePattern): number[] {
  const found: number[] = [];
  // A global or sticky RegExp would carry lastIndex from one line to the next.
  const test =
    pattern instanceof RegExp ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) : pattern;
  fileLines(fileContent).forEach((line, i) => {
    if (test.test(line)) found.push(i + 1);
  });
  return found;
}

/** 1-based numbers of the lines that contain any of the strings, taken literally. */
export function linesContaining(fileContent: string, needles: readonly string[]): number[] {
  const found: number[] = [];
  fileLines(fileContent).forEach((line, i) => {
    if (needles.some((n) => n !== '' && line.includes(n))) found.push(i + 1);
  });
  return found;
}

/**
 * The block headed by the first line matching `header`, by indentation, so it serves Python and
 * brace languages alike: the header, then every line blank or indented deeper, or at the header's
 * indent but opening with a closing bracket (`}`, `});`, a multi-line signature's `) -> int:`).
 * Trailing blank lines are not part of it. null when no line matches.
 */
export function blockAt(fileContent: string, header: LinePattern): LineRange | null {
  const lines = fileLines(fileContent);
  const first = linesMatching(fileContent, header)[0];
  if (first === undefined) return null;
  const indent = indentOf(lines[first - 1] ?? '');
  let to = first;
  for (let n = first + 1; n <= lines.length; n++) {
    const line = lines[n - 1] ?? '';
    if (line.trim() === '') continue;
    const deeper = indentOf(line) > indent;
    if (!deeper && !(indentOf(line) === indent && /^[)\]}]/.test(line.trim()))) break;
    to = n;
  }
  return { from: first, to };
}

function substantiveAmong(shown: ShownLines, lines: readonly number[] | LineRange): number[] {
  const wanted = 'from' in lines ? (n: number) => n >= lines.from && n <= lines.to : setTest(lines);
  return shown.substantive.filter(wanted);
}

function setTest(lines: readonly number[]): (n: number) => boolean {
  const set = new Set(lines);
  return (n) => set.has(n);
}

/** Tabs count as one column each; a file mixing tabs and spaces is unusual enough to ignore. */
function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}
