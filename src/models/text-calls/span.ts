import { type CallMode, callsFromValue, type TextToolCall } from './call-object.js';
import { type JsonText, parseValueAt } from './json-scan.js';

/** A stretch of reply text that held tool calls (or a clearly marked but broken one). */
export interface Span {
  start: number;
  end: number;
  calls: TextToolCall[];
  error: string | null;
}

/** Finds the spans of one format. Input text has earlier formats' spans blanked out. */
export type Extractor = (text: string) => Span[];

export interface Sequence {
  calls: TextToolCall[];
  /** Index just past the last value read (or where reading stopped on an error). */
  end: number;
  error: string | null;
}

export function skipSpace(text: string, pos: number, extra = ''): number {
  let i = pos;
  while (i < text.length && (/\s/.test(text[i] ?? '') || extra.includes(text[i] ?? ''))) i++;
  return i;
}

/**
 * Reads consecutive JSON values (each a call or an array of calls) separated by whitespace, `;`
 * or `,`. In `wrapped` mode anything that is not a call is an error; in `strict` mode reading just
 * stops there (keeping the calls before it), because the text was never claimed to be a call.
 */
export function readCallSequence(src: JsonText, pos: number, mode: CallMode): Sequence {
  const text = src.text;
  const calls: TextToolCall[] = [];
  let end = pos;
  let i = skipSpace(text, pos);
  while (text[i] === '{' || text[i] === '[') {
    const value = parseValueAt(src, i);
    if (value === null)
      return stop(calls, end, text.length, mode, 'unterminated JSON (a closing } or ] is missing)');
    if (!value.parsed.ok) return stop(calls, end, value.end, mode, `invalid JSON (${value.parsed.error})`);
    const found = callsFromValue(value.parsed.value, mode);
    if (found === null) return stop(calls, end, value.end, mode, 'JSON is not a {"name", "arguments"} call');
    calls.push(...found);
    end = value.end;
    i = skipSpace(text, end, ';,');
  }
  return { calls, end, error: null };
}

/** Strict mode keeps what was read so far and ends before the bad value; wrapped mode reports it. */
function stop(
  calls: TextToolCall[],
  goodEnd: number,
  badEnd: number,
  mode: CallMode,
  error: string,
): Sequence {
  return mode === 'strict' ? { calls, end: goodEnd, error: null } : { calls, end: badEnd, error };
}

/** All indexes where `needle` occurs. */
export function indexesOf(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}
