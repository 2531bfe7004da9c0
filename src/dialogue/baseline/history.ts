/**
 * The conversation as the baseline agent reads it: only what any agent sees (the messages), never
 * the scenario. Tool results are matched to their calls by id and read as JSON.
 */
import type { ChatMessage } from '../../models/types.js';

export interface PastCall {
  name: string;
  args: Record<string, unknown>;
  /** The tool's JSON reply; `error` set when the environment said no. */
  result: Record<string, unknown>;
  ok: boolean;
}

export interface History {
  /** The user's first message. */
  opening: string;
  /** Every user message, the opening first. */
  userTexts: string[];
  /** The user's latest message. */
  lastUser: string;
  /** Messages the agent sent the user, in order. */
  said: string[];
  calls: PastCall[];
}

export function readHistory(messages: readonly ChatMessage[]): History {
  const userTexts: string[] = [];
  const said: string[] = [];
  const pending = new Map<string, { name: string; args: Record<string, unknown> }>();
  const calls: PastCall[] = [];
  for (const m of messages) {
    if (m.role === 'user') userTexts.push(m.content);
    else if (m.role === 'assistant') {
      if (m.toolCalls.length === 0 && m.content !== null) said.push(m.content);
      for (const c of m.toolCalls) pending.set(c.id, { name: c.name, args: asObject(c.rawArguments) });
    } else if (m.role === 'tool') {
      const call = pending.get(m.toolCallId);
      if (call === undefined) continue;
      const result = asObject(m.content);
      calls.push({ ...call, result, ok: !('error' in result) });
    }
  }
  return { opening: userTexts[0] ?? '', userTexts, lastUser: userTexts.at(-1) ?? '', said, calls };
}

function asObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { error: 'not an object' };
  } catch {
    return { error: text };
  }
}

/** The successful calls of one tool, oldest first. */
export function callsOf(h: History, name: string): PastCall[] {
  return h.calls.filter((c) => c.ok && c.name === name);
}
