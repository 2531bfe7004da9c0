/**
 * Which lines of a file a model was shown by one tool call, judged from the text it received, not
 * from the command it ran: `cat f | wc -c` showed nothing, `pytest | tail` may have shown source
 * lines in a traceback. A file line counts as shown when the output holds it as a whole line (after
 * a recognised prefix such as `cat -n`'s number or grep's `path:12:` is taken off); a substring of a
 * longer line never counts.
 *
 * Matching is by exact normalised line (hash map), so it is linear in file plus output:
 * 1. anchors: output lines whose content is a substantive line (line-kind.ts) found once in the
 *    file, or at the line number its prefix names;
 * 2. content found several times in the file goes to the copy that continues the neighbouring
 *    anchors' order, else the first copy after the previous anchor (one copy, never all of them:
 *    a shown `return total` says nothing about the other five);
 * 3. runs: from each anchor, the output lines after (and before) it that equal the file lines
 *    after (before) its line are shown too. Only here do blank and trivial lines count, and the
 *    lines next to a cut, which may be partial (one that equals the file line the run expects is
 *    taken as whole).
 */
import { fileLines, isSubstantive, normaliseLine } from './line-kind.js';
import { type PrefixOptions, type Reading, readingsOf } from './line-prefixes.js';
import { outputLines } from './output-lines.js';

export interface ShownLines {
  /** 1-based numbers of the file lines the output showed, ascending. */
  readonly lines: readonly number[];
  /** 1-based numbers of the file's substantive lines: what coverage is measured on. */
  readonly substantive: readonly number[];
  /** Lines in the file (a final newline does not start another). */
  readonly fileLines: number;
}

export function shownLines(fileContent: string, output: string, options: PrefixOptions = {}): ShownLines {
  const file = fileLines(fileContent).map(normaliseLine);
  const index = new Map<string, number[]>();
  const substantive: number[] = [];
  file.forEach((line, i) => {
    if (!isSubstantive(line)) return;
    substantive.push(i + 1);
    const copies = index.get(line);
    if (copies === undefined) index.set(line, [i]);
    else copies.push(i);
  });
  const out = outputLines(output);
  const readings = out.map((line) => readingsOf(line.text, options));
  const match = new Array<number>(out.length).fill(-1);

  const duplicates: { at: number; copies: number[] }[] = [];
  out.forEach((line, j) => {
    if (line.fragment) return;
    const anchor = anchorOf(readings[j] ?? [], file, index);
    if (typeof anchor === 'number') match[j] = anchor;
    else if (anchor !== null) duplicates.push({ at: j, copies: anchor });
  });
  placeDuplicates(duplicates, match);
  extendRuns(match, readings, file);

  const shown = new Set<number>();
  for (const i of match) if (i >= 0) shown.add(i + 1);
  return { lines: [...shown].sort((a, b) => a - b), substantive, fileLines: file.length };
}

/** The file index a line anchors to, the copies to choose from, or null when it anchors nothing. */
function anchorOf(
  readings: readonly Reading[],
  file: readonly string[],
  index: ReadonlyMap<string, number[]>,
): number | number[] | null {
  for (const r of readings) {
    if (r.lineNumber !== null && file[r.lineNumber - 1] === r.content && index.has(r.content))
      return r.lineNumber - 1;
  }
  let several: number[] | null = null;
  for (const r of readings) {
    const copies = index.get(r.content);
    if (copies === undefined) continue;
    if (copies.length === 1) return copies[0] ?? null;
    several ??= copies;
  }
  return several;
}

/** Step 2 of the module comment. `duplicates` is in output order, so "previous" is already final. */
function placeDuplicates(duplicates: readonly { at: number; copies: number[] }[], match: number[]): void {
  if (duplicates.length === 0) return;
  const nextAnchor = new Array<number>(match.length + 1).fill(-1);
  for (let j = match.length - 1; j >= 0; j--)
    nextAnchor[j] = (match[j] ?? -1) >= 0 ? j : (nextAnchor[j + 1] ?? -1);
  let prev = -1;
  let scanned = 0;
  for (const { at, copies } of duplicates) {
    for (; scanned < at; scanned++) if ((match[scanned] ?? -1) >= 0) prev = scanned;
    const next = nextAnchor[at + 1] ?? -1;
    const prevLine = prev >= 0 ? (match[prev] ?? -1) : -1;
    const wanted = [
      prev >= 0 ? prevLine + (at - prev) : -1,
      next >= 0 ? (match[next] ?? -1) - (next - at) : -1,
    ];
    match[at] = wanted.find((i) => i >= 0 && hasSorted(copies, i)) ?? firstAfter(copies, prevLine);
  }
}

/**
 * Step 3 of the module comment. A numbered line continues a run only if its number does: it names
 * the file line it stands for, or follows the run's last number (`nl` leaves blank lines unnumbered,
 * so its numbers drift from the file's). `12:x` then `30:}` from grep -n is not a run.
 */
function extendRuns(match: number[], readings: readonly Reading[][], file: readonly string[]): void {
  const extend = (j: number, dir: 1 | -1): void => {
    const i = match[j] ?? -1;
    if (i < 0) return;
    let number =
      (readings[j] ?? []).find((r) => r.content === file[i] && r.lineNumber !== null)?.lineNumber ?? null;
    for (let k = j + dir, t = i + dir; match[k] === -1 && t >= 0 && t < file.length; k += dir, t += dir) {
      const expected = number === null ? null : number + dir;
      const fit = (readings[k] ?? []).find(
        (r) =>
          r.content === file[t] &&
          (r.lineNumber === null || r.lineNumber === t + 1 || r.lineNumber === expected),
      );
      if (fit === undefined) return;
      match[k] = t;
      if (fit.lineNumber !== null) number = fit.lineNumber;
    }
  };
  for (let j = 0; j < match.length; j++) extend(j, 1);
  for (let j = match.length - 1; j >= 0; j--) extend(j, -1);
}

function lowerBound(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function hasSorted(sorted: readonly number[], value: number): boolean {
  return sorted[lowerBound(sorted, value)] === value;
}

/** The first copy after `line`, else the first copy (the output went back up the file). */
function firstAfter(copies: readonly number[], line: number): number {
  return copies[lowerBound(copies, line + 1)] ?? copies[0] ?? -1;
}
