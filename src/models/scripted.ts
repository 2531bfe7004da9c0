/**
 * An in-process model that replays a script, one reply per request. It drives the built-in
 * `--model oracle` reference agent: the task's reference solution, run through the real loop.
 */
import { CallIdAllocator } from './call-ids.js';
import { parseTextToolCalls } from './text-tool-calls.js';
import type { ChatModel, ModelReply } from './types.js';

/** A tool call in a scripted run (reference solution or lure). */
export interface ScriptedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One model reply in a scripted run: optional text and zero or more tool calls. */
export interface ScriptedTurn {
  text?: string;
  calls: ScriptedCall[];
  /**
   * The calls are printed in the reply's text as Hermes `<tool_call>` tags and read back by the
   * text-call parser, as from a model served without a tool-call parser (counted as text calls).
   */
  callsAsText?: true;
}

/** What the model says once the script has run out: a final answer with no calls. */
const SCRIPT_EXHAUSTED_TEXT = 'done';

/** `reference`: the turns are the task's reference solution (ChatModel.replaysReference). */
export function createScriptedModel(
  name: string,
  turns: readonly ScriptedTurn[],
  o: { reference?: true } = {},
): ChatModel {
  const ids = new CallIdAllocator();
  let cursor = 0;
  return {
    name,
    ...(o.reference === true ? { replaysReference: true as const } : {}),
    async complete(_messages, _tools, signal): Promise<ModelReply> {
      signal?.throwIfAborted();
      const turn = turns[cursor];
      cursor++;
      const calls = turn?.calls ?? [];
      if (turn?.callsAsText === true) return printedCalls(turn, ids);
      return {
        text: turn === undefined ? SCRIPT_EXHAUSTED_TEXT : (turn.text ?? ''),
        toolCalls: calls.map((call) => ({
          id: ids.take(),
          name: call.name,
          rawArguments: JSON.stringify(call.arguments),
          // A copy: the loop must not be able to edit the task's reference solution through a reply.
          arguments: structuredClone(call.arguments),
          source: 'native',
        })),
        usage: null,
        finishReason: calls.length > 0 ? 'tool_calls' : 'stop',
        latencyMs: 0,
        retries: [],
        malformed: null,
      };
    },
  };
}

/** The turn's calls printed as text and read back as a server without a tool-call parser would give them. */
function printedCalls(turn: ScriptedTurn, ids: CallIdAllocator): ModelReply {
  const printed = turn.calls
    .map((c) => `<tool_call>\n${JSON.stringify({ name: c.name, arguments: c.arguments })}\n</tool_call>`)
    .join('\n');
  const found = parseTextToolCalls(`${turn.text === undefined ? '' : `${turn.text}\n`}${printed}`);
  return {
    text: found.remainingText,
    toolCalls: found.calls.map((c) => ({ ...c, id: ids.take(), source: 'text' as const })),
    usage: null,
    finishReason: 'stop',
    latencyMs: 0,
    retries: [],
    malformed: found.errors.length === 0 ? null : found.errors.join('; '),
  };
}
