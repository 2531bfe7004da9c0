/**
 * What a line of output may be showing of a file once the tool's own prefix is taken off. Several
 * readings are returned because the text alone cannot say which applies (`12:30 lunch` may be a
 * line of a file, or line 12 of one); the matcher keeps the reading that fits the file.
 */
import { normaliseLine } from './line-kind.js';

export interface Reading {
  /** Normalised content the line would show. */
  content: string;
  /** 1-based line number the prefix claims, when it has one. */
  lineNumber: number | null;
}

export interface PrefixOptions {
  /**
   * Names the file may be printed under in grep output (`path:12:line`, `path:line`). When given,
   * grep lines of other files are not readings of this one; when absent, any path is accepted.
   */
  paths?: readonly string[] | undefined;
}

// Lines are the model's output; the rest of a line is `.*` with the `s` flag, anything at all, so
// `$` cannot fail after a prefix (at a CR or U+2028) and make the prefix's spaces backtrack.
/** `cat -n`, `nl` (tab), `awk '{print NR": "$0}'`, `bat`/`less -N` gutters, tsc's code frames. */
const NUMBERED = /^\s*(\d+)(?:\t| *[│|:] ?| +)(.*)$/s;
/** `grep -n -C` context lines on one file: `12-context` (`12:match` is a NUMBERED form). */
const GREP_CONTEXT = /^(\d+)-(.*)$/;
/** pytest marks the failing source line of a traceback with `>`. */
const PYTEST_SOURCE = /^>\s+(.*)$/s;
/** Where a `path:12:` or `path-12-` (context line) grep prefix may end. */
const GREP_PATH_NUMBER = /([:-])(\d+)\1/g;

export function readingsOf(line: string, options: PrefixOptions): Reading[] {
  const readings: Reading[] = [{ content: normaliseLine(line), lineNumber: null }];
  const numbered = NUMBERED.exec(line) ?? GREP_CONTEXT.exec(line);
  if (numbered !== null)
    readings.push({ content: normaliseLine(numbered[2] ?? ''), lineNumber: Number(numbered[1]) });
  const source = PYTEST_SOURCE.exec(line);
  if (source !== null) readings.push({ content: normaliseLine(source[1] ?? ''), lineNumber: null });
  readings.push(...grepReadings(line, options));
  return readings;
}

function grepReadings(line: string, options: PrefixOptions): Reading[] {
  const readings: Reading[] = [];
  // Cheap gate: a path prefix needs a separator followed by a digit.
  if (!/[:-]\d/.test(line)) return pathOnlyReadings(line, options);
  for (const m of line.matchAll(GREP_PATH_NUMBER)) {
    const path = line.slice(0, m.index);
    if (path === '' || /^\s/.test(path) || !pathAccepted(path, options)) continue;
    readings.push({
      content: normaliseLine(line.slice(m.index + m[0].length)),
      lineNumber: Number(m[2]),
    });
  }
  return readings.length > 0 ? readings : pathOnlyReadings(line, options);
}

/** `grep -r` without -n: `path:match`, `path-context`. Only for known paths: any `word:` looks alike. */
function pathOnlyReadings(line: string, options: PrefixOptions): Reading[] {
  const readings: Reading[] = [];
  for (const path of options.paths ?? []) {
    for (const printed of [path, `./${stripDotSlash(path)}`]) {
      const sep = line[printed.length];
      if (line.startsWith(printed) && (sep === ':' || sep === '-'))
        readings.push({ content: normaliseLine(line.slice(printed.length + 1)), lineNumber: null });
    }
  }
  return readings;
}

/**
 * The model's working directory is not known here, so a printed path matches a given one when
 * either is the other with leading directories (`src/a.py` and `/workspace/src/a.py`).
 */
function pathAccepted(printed: string, options: PrefixOptions): boolean {
  if (options.paths === undefined) return true;
  const p = stripDotSlash(printed);
  return options.paths.some((given) => {
    const g = stripDotSlash(given);
    return p === g || p.endsWith(`/${g}`) || g.endsWith(`/${p}`);
  });
}

function stripDotSlash(path: string): string {
  return path.startsWith('./') ? path.slice(2) : path;
}
