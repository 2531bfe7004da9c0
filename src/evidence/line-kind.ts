/**
 * Which lines of a file are evidence on their own. A blank line, a `}` or a bare `else:` appears
 * in almost any output, so seeing one proves nothing about which file was read; such lines count
 * only next to a substantive line of the same stretch of the file (see shown-lines.ts).
 */

/** A file's lines without their line ends; a final newline does not start another line. */
export function fileLines(content: string): string[] {
  if (content === '') return [];
  const lines = content.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** Comparison form of a line: indentation, trailing spaces and CR do not matter. */
export function normaliseLine(line: string): string {
  return line.trim();
}

/** Fewer letters or digits than this, and a line is punctuation plus a word at most. */
const MIN_WORD_CHARS = 4;

/** Lines that are a keyword alone: as common in every file as a brace. */
const BARE_KEYWORDS = new Set([
  'pass',
  'else',
  'try',
  'finally',
  'except',
  'return',
  'break',
  'continue',
  'default',
  'end',
  'done',
  'then',
  'begin',
  'esac',
]);

/** True when a normalised line is specific enough to count as seen on its own. */
export function isSubstantive(normalised: string): boolean {
  const words = normalised.replace(/[^\p{L}\p{N}_]+/gu, '');
  if (words.length < MIN_WORD_CHARS) return false;
  return !BARE_KEYWORDS.has(words.toLowerCase());
}
