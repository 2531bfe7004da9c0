import { isPlainObject, parseJsonLenient } from './json-scan.js';

/** A tool call found in reply text, before it gets an id. */
export interface TextToolCall {
  name: string;
  rawArguments: string;
  /** null when the arguments were not a JSON object. */
  arguments: Record<string, unknown> | null;
}

/**
 * `strict`: a bare object in prose counts only if it looks exactly like a call (string name and
 * object arguments), so ordinary JSON in an answer is left alone. `wrapped`: inside an explicit
 * tool-call marker, a name is enough; bad arguments are kept raw for the loop to judge.
 */
export type CallMode = 'strict' | 'wrapped';

/** Keys a printed call may carry; a bare object with any other key is data, not a call. */
const CALL_KEYS = new Set(['name', 'arguments', 'parameters', 'type', 'id', 'function']);

export function callFromValue(value: unknown, mode: CallMode): TextToolCall | null {
  if (!isPlainObject(value)) return null;
  // OpenAI-shaped `{"type":"function","function":{...}}` printed as text.
  const fn = value.function;
  const obj = isPlainObject(fn) && typeof fn.name === 'string' ? fn : value;
  const name = obj.name;
  if (typeof name !== 'string' || name === '') return null;
  const args = 'arguments' in obj ? obj.arguments : obj.parameters;
  if (mode === 'strict') {
    if (!Object.keys(value).every((k) => CALL_KEYS.has(k)) || args === undefined) return null;
  }
  const call = argumentsOf(name, args);
  return mode === 'strict' && call.arguments === null ? null : call;
}

function argumentsOf(name: string, args: unknown): TextToolCall {
  if (args === undefined || args === null) return { name, rawArguments: '{}', arguments: {} };
  if (isPlainObject(args)) return { name, rawArguments: JSON.stringify(args), arguments: args };
  if (typeof args === 'string') {
    // Some templates double-encode: `"arguments": "{\"path\": \"a.txt\"}"`.
    const decoded = parseJsonLenient(args);
    return {
      name,
      rawArguments: args,
      arguments: decoded.ok && isPlainObject(decoded.value) ? decoded.value : null,
    };
  }
  return { name, rawArguments: JSON.stringify(args), arguments: null };
}

/** One call or an array of calls; null unless every element is a call. */
export function callsFromValue(value: unknown, mode: CallMode): TextToolCall[] | null {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const calls: TextToolCall[] = [];
  for (const item of items) {
    const call = callFromValue(item, mode);
    if (call === null) return null;
    calls.push(call);
  }
  return calls;
}
