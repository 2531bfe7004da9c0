import { callFromValue } from './call-object.js';
import { JsonText, parseValueAt } from './json-scan.js';
import { indexesOf, readCallSequence, type Span, skipSpace } from './span.js';

const MARKER = '[TOOL_CALLS]';
/** Newer templates: `[TOOL_CALLS]name[ARGS]{...}`, optionally with `[CALL_ID]id` before `[ARGS]`. */
const NAMED_CALL = /([A-Za-z0-9_.-]+)(?:\[CALL_ID\][A-Za-z0-9_-]*)?\[ARGS\]/y;

/** Mistral: `[TOOL_CALLS][{"name": ..., "arguments": ...}, ...]` or `[TOOL_CALLS]name[ARGS]{...}`. */
export function extractMistral(text: string): Span[] {
  const src = new JsonText(text);
  return indexesOf(text, MARKER).map((start) => {
    const pos = skipSpace(text, start + MARKER.length);
    NAMED_CALL.lastIndex = pos;
    const named = NAMED_CALL.exec(text);
    if (named === null) {
      const seq = readCallSequence(src, pos, 'wrapped');
      const error = seq.error ?? (seq.calls.length === 0 ? 'not followed by a JSON tool call' : null);
      return { start, end: Math.max(seq.end, pos), calls: seq.calls, error: error && `${MARKER}: ${error}` };
    }
    const name = named[1] ?? '';
    const argsAt = skipSpace(text, NAMED_CALL.lastIndex);
    const value = parseValueAt(src, argsAt);
    if (value === null)
      return { start, end: text.length, calls: [], error: `${MARKER}${name}: unterminated JSON` };
    if (!value.parsed.ok) {
      return {
        start,
        end: value.end,
        calls: [],
        error: `${MARKER}${name}: invalid JSON (${value.parsed.error})`,
      };
    }
    const call = callFromValue({ name, arguments: value.parsed.value }, 'wrapped');
    return { start, end: value.end, calls: call === null ? [] : [call], error: null };
  });
}
