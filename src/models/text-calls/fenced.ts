import type { CallMode } from './call-object.js';
import { JsonText } from './json-scan.js';
import { readCallSequence, type Span, skipSpace } from './span.js';

/** ```json (or unlabelled) may hold any JSON, so only exact calls count; tool_* labels claim a call. */
const FENCE_OPEN = /```(json|tool_code|tool_call|tool_calls)?[ \t]*\r?\n/g;

/** Fenced blocks whose whole body is one or more tool-call objects. */
export function extractFenced(text: string): Span[] {
  const spans: Span[] = [];
  const src = new JsonText(text);
  for (const match of text.matchAll(FENCE_OPEN)) {
    const start = match.index;
    if (spans.some((s) => start < s.end)) continue;
    const mode: CallMode = match[1]?.startsWith('tool_') ? 'wrapped' : 'strict';
    const bodyAt = start + match[0].length;
    const seq = readCallSequence(src, bodyAt, mode);
    const after = skipSpace(text, seq.end);
    const closed = text.startsWith('```', after);
    if (mode === 'strict') {
      // Prose code blocks are common: claim the block only if it is nothing but calls.
      if (seq.calls.length > 0 && closed)
        spans.push({ start, end: after + 3, calls: seq.calls, error: null });
      continue;
    }
    if (seq.error === null && seq.calls.length > 0) {
      spans.push({ start, end: closed ? after + 3 : seq.end, calls: seq.calls, error: null });
      continue;
    }
    const fenceEnd = text.indexOf('```', bodyAt);
    const reason = seq.error ?? 'does not hold a JSON tool call';
    const end = fenceEnd >= 0 ? fenceEnd + 3 : text.length;
    spans.push({ start, end, calls: seq.calls, error: `\`\`\`${match[1]} block: ${reason}` });
  }
  return spans;
}
