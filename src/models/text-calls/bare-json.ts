import { callsFromValue } from './call-object.js';
import { JsonText, parseValueAt } from './json-scan.js';
import { type Span, skipSpace } from './span.js';

/**
 * Llama 3.x without its `<|python_tag|>`: call objects sitting in the text, one or several,
 * separated by `;` or newlines. Only exact call shapes count, so JSON in an explanation is left
 * alone, and so is anything nested inside such JSON.
 */
export function extractBareJson(text: string): Span[] {
  // Cheap gate: every bare call has a quoted "name" key; most replies never reach the scanner.
  if (!text.includes('"name"')) return [];
  const spans: Span[] = [];
  const src = new JsonText(text);
  for (let start = nextCandidate(text, 0); start >= 0; ) {
    const value = parseValueAt(src, start);
    if (value === null || !value.parsed.ok) {
      start = nextCandidate(text, start + 1);
      continue;
    }
    const calls = callsFromValue(value.parsed.value, 'strict');
    if (calls !== null) {
      const afterSeparator =
        text[skipSpace(text, value.end)] === ';' ? skipSpace(text, value.end) + 1 : value.end;
      spans.push({ start, end: afterSeparator, calls, error: null });
    }
    start = nextCandidate(text, value.end);
  }
  return spans;
}

/** Next `{"` or `[{` (JSON objects start with a key): skips the many braces of ordinary code. */
function nextCandidate(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '{' && ch !== '[') continue;
    const next = text[skipSpace(text, i + 1)];
    if ((ch === '{' && next === '"') || (ch === '[' && next === '{')) return i;
  }
  return -1;
}
