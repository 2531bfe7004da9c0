/**
 * Tool calls that a model printed as text instead of sending structured `tool_calls` (common with
 * small local models and servers run without a tool-call parser). Each format lives in
 * ./text-calls/; this file runs them in order and cuts what they found out of the text.
 */
import { extractBareJson } from './text-calls/bare-json.js';
import type { TextToolCall } from './text-calls/call-object.js';
import { extractFenced } from './text-calls/fenced.js';
import { extractMistral } from './text-calls/mistral.js';
import type { Extractor, Span } from './text-calls/span.js';
import { extractGranite, extractHermes, extractPythonTag } from './text-calls/tagged.js';
import { extractBareXmlFunctions } from './text-calls/xml-function.js';

export interface TextToolCallParse {
  /** In the order they appear in the text. */
  calls: TextToolCall[];
  /**
   * The text with every call found (and its wrapper) removed. Broken calls stay, so the model
   * sees what it wrote when it is asked to resend.
   */
  remainingText: string;
  /** One line per clearly marked call that could not be read (e.g. broken JSON in <tool_call>). */
  errors: string[];
}

/** Explicit markers first, so their contents are never re-read as bare JSON. */
const EXTRACTORS: readonly Extractor[] = [
  extractHermes,
  extractGranite,
  extractPythonTag,
  extractMistral,
  extractBareXmlFunctions,
  extractFenced,
  extractBareJson,
];

export function parseTextToolCalls(text: string): TextToolCallParse {
  let masked = text;
  const spans: Span[] = [];
  for (const extract of EXTRACTORS) {
    for (const span of extract(masked)) {
      if (spans.some((s) => span.start < s.end && s.start < span.end)) continue;
      spans.push(span);
      masked = masked.slice(0, span.start) + ' '.repeat(span.end - span.start) + masked.slice(span.end);
    }
  }
  spans.sort((a, b) => a.start - b.start);
  let remaining = '';
  let cursor = 0;
  for (const span of spans) {
    if (span.calls.length === 0) continue;
    remaining += text.slice(cursor, span.start);
    cursor = span.end;
  }
  remaining += text.slice(cursor);
  return {
    calls: spans.flatMap((s) => s.calls),
    remainingText: remaining.replace(/\n{3,}/g, '\n\n').trim(),
    errors: spans.flatMap((s) => (s.error === null ? [] : [oneLine(s.error)])),
  };
}

function oneLine(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 197)}...` : flat;
}
