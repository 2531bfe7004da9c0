/** Formats that announce a call with a special marker, so broken JSON after it is an error. */

import { JsonText } from './json-scan.js';
import { indexesOf, readCallSequence, type Sequence, type Span, skipSpace } from './span.js';
import { readXmlFunctions } from './xml-function.js';

const HERMES_OPEN = '<tool_call>';
const HERMES_CLOSE = '</tool_call>';

/** Hermes/Qwen: `<tool_call>{"name": ..., "arguments": ...}</tool_call>`, JSON or Qwen3-coder XML inside. */
export function extractHermes(text: string): Span[] {
  const src = new JsonText(text);
  return indexesOf(text, HERMES_OPEN).map((start) => {
    let pos = skipSpace(text, start + HERMES_OPEN.length);
    // Some models fence the JSON inside the tag as well.
    if (text.startsWith('```', pos)) pos = skipSpace(text, endOfLine(text, pos));
    const firstClose = text.indexOf(HERMES_CLOSE, pos);
    if (text.startsWith('<function=', pos)) {
      // XML values are raw text, so the wrapper's closing tag is the only reliable end.
      const closed = firstClose >= 0;
      const seq = readXmlFunctions(closed ? text.slice(0, firstClose) : text, pos, closed);
      return toSpan(start, closed ? firstClose + HERMES_CLOSE.length : seq.end, seq, HERMES_OPEN);
    }
    let seq = readCallSequence(src, pos, 'wrapped');
    if ((seq.error !== null || seq.calls.length === 0) && firstClose >= 0) {
      // Broken content ends at the first closing tag, so one bad call cannot swallow the next
      // one, and the error describes this call alone.
      seq = readCallSequence(new JsonText(text.slice(0, firstClose)), pos, 'wrapped');
      return toSpan(start, firstClose + HERMES_CLOSE.length, seq, HERMES_OPEN);
    }
    let after = skipSpace(text, seq.end);
    if (text.startsWith('```', after)) after = skipSpace(text, after + 3);
    // A stop token often cuts the closing tag; then the call ends where its content ended.
    const end = text.startsWith(HERMES_CLOSE, after) ? after + HERMES_CLOSE.length : Math.max(seq.end, pos);
    return toSpan(start, end, seq, HERMES_OPEN);
  });
}

/** Granite: `<|tool_call|>[{"name": ..., "arguments": ...}]`. */
export function extractGranite(text: string): Span[] {
  return extractAfterMarker(text, '<|tool_call|>');
}

/** Llama 3.x: `<|python_tag|>{"name": ..., "parameters": ...}`, possibly several joined by `;`. */
export function extractPythonTag(text: string): Span[] {
  return extractAfterMarker(text, '<|python_tag|>');
}

function extractAfterMarker(text: string, marker: string): Span[] {
  const src = new JsonText(text);
  return indexesOf(text, marker).map((start) => {
    const pos = start + marker.length;
    const seq = readCallSequence(src, pos, 'wrapped');
    return toSpan(start, Math.max(seq.end, pos), seq, marker);
  });
}

function toSpan(start: number, end: number, seq: Sequence, marker: string): Span {
  const error =
    seq.error !== null
      ? `${marker}: ${seq.error}`
      : seq.calls.length === 0
        ? `${marker} is not followed by a JSON tool call`
        : null;
  return { start, end, calls: seq.calls, error };
}

function endOfLine(text: string, pos: number): number {
  const nl = text.indexOf('\n', pos);
  return nl < 0 ? text.length : nl + 1;
}
