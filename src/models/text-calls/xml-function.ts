import type { TextToolCall } from './call-object.js';
import { type Sequence, type Span, skipSpace } from './span.js';

const FUNCTION_OPEN = '<function=';
const FUNCTION_CLOSE = '</function>';
const PARAMETER_OPEN = '<parameter=';
const PARAMETER_CLOSE = '</parameter>';

/**
 * Qwen3-coder's XML calls: `<function=NAME><parameter=KEY>value</parameter></function>`, one or
 * several in a row from `pos`. Values stay strings: without the tool schema there is no telling
 * "42" the number from "42" the text, and every agent-bench tool takes strings.
 * `endsAtText`: the text was cut at a closing wrapper tag, which also ends a last unclosed
 * function. Without a wrapper, a missing </function> is an error: the output may be truncated.
 */
export function readXmlFunctions(text: string, pos: number, endsAtText = false): Sequence {
  const calls: TextToolCall[] = [];
  let i = skipSpace(text, pos);
  let end = pos;
  while (text.startsWith(FUNCTION_OPEN, i)) {
    const nameEnd = text.indexOf('>', i);
    const found = nameEnd < 0 ? -1 : text.indexOf(FUNCTION_CLOSE, nameEnd);
    const close = found < 0 && endsAtText && nameEnd >= 0 ? text.length : found;
    if (close < 0) return { calls, end: text.length, error: 'unterminated <function=...> block' };
    const name = text.slice(i + FUNCTION_OPEN.length, nameEnd).trim();
    const args = readParameters(text.slice(nameEnd + 1, close));
    calls.push({ name, rawArguments: JSON.stringify(args), arguments: args });
    end = Math.min(text.length, close + FUNCTION_CLOSE.length);
    i = skipSpace(text, end);
  }
  return { calls, end, error: null };
}

function readParameters(body: string): Record<string, string> {
  const args: Record<string, string> = {};
  // Split on openers rather than matching pairs: models often drop the closing </parameter>.
  for (const chunk of body.split(PARAMETER_OPEN).slice(1)) {
    const keyEnd = chunk.indexOf('>');
    if (keyEnd < 0) continue;
    const key = chunk.slice(0, keyEnd).trim();
    const closeAt = chunk.lastIndexOf(PARAMETER_CLOSE);
    const value = closeAt < 0 ? chunk.slice(keyEnd + 1) : chunk.slice(keyEnd + 1, closeAt);
    args[key] = trimOneNewline(value);
  }
  return args;
}

/** The template puts the value on its own lines; strip exactly that framing, keep the rest. */
function trimOneNewline(value: string): string {
  const start = value.startsWith('\n') ? 1 : 0;
  const end = value.endsWith('\n') ? value.length - 1 : value.length;
  return value.slice(start, Math.max(start, end));
}

/** Bare `<function=...>` blocks outside any `<tool_call>` wrapper; unterminated ones are left as text. */
export function extractBareXmlFunctions(text: string): Span[] {
  const spans: Span[] = [];
  let from = 0;
  for (let i = text.indexOf(FUNCTION_OPEN); i >= 0; i = text.indexOf(FUNCTION_OPEN, from)) {
    const seq = readXmlFunctions(text, i);
    if (seq.error !== null || seq.calls.length === 0) break;
    spans.push({ start: i, end: seq.end, calls: seq.calls, error: null });
    from = seq.end;
  }
  return spans;
}
