/**
 * `run --tool-calls`: native-only runs no call the model printed as text; text-only sends no tools,
 * tells the model the text format, and runs its text calls. Whole trials through the real loop.
 */
import { describe, expect, it } from 'vitest';
import { withToolCallMode } from '../../src/models/tool-call-mode.js';
import type { ChatMessage, ChatModel, ModelReply, ToolSpec } from '../../src/models/types.js';
import { trial } from '../agent/trials.js';

/** Reads notes.txt with a call printed as text (as a model without a tool-call parser does), then answers. */
function textCaller(): ChatModel & { sent: { messages: ChatMessage[]; tools: number }[] } {
  const sent: { messages: ChatMessage[]; tools: number }[] = [];
  const reply = (r: Partial<ModelReply>): ModelReply => ({
    text: '',
    toolCalls: [],
    usage: null,
    finishReason: 'stop',
    latencyMs: 1,
    retries: [],
    malformed: null,
    ...r,
  });
  return {
    name: 'text-caller',
    sent,
    async complete(messages: readonly ChatMessage[], tools: readonly ToolSpec[]) {
      sent.push({ messages: [...messages], tools: tools.length });
      if (sent.length > 1) return reply({ text: 'It says the build is green.' });
      const args = JSON.stringify({ path: 'notes.txt' });
      return reply({
        toolCalls: [
          {
            id: 'c1',
            name: 'read_file',
            rawArguments: args,
            arguments: { path: 'notes.txt' },
            source: 'text',
          },
        ],
      });
    },
  };
}

describe('--tool-calls', () => {
  it('both (the default) runs a call printed as text', async () => {
    const { record } = await trial({ model: textCaller() });
    expect(record.text_tool_calls).toBe(1);
    expect(record.flags.read_notes?.reached).toBe(true);
  });

  it('native does not run a call printed as text: the reply stands as the answer, the call shown in it', async () => {
    const model = textCaller();
    const { record } = await trial({ model: withToolCallMode(model, 'native') });
    expect(record.turn_logs.flatMap((t) => t.tool_calls)).toEqual([]);
    expect(record.flags.read_notes?.reached).toBe(false);
    expect(record.final_answer).toContain('<tool_call>{"name": "read_file"');
    expect(model.sent).toHaveLength(1);
    expect(model.sent[0]?.tools).toBeGreaterThan(0);
  });

  it('text sends no tools, tells the model each tool and the format, and runs its text calls', async () => {
    const model = textCaller();
    const { record } = await trial({ model: withToolCallMode(model, 'text') });
    expect(model.sent.map((s) => s.tools)).toEqual([0, 0]);
    const system = model.sent[0]?.messages.filter((m) => m.role === 'system') ?? [];
    expect(system).toHaveLength(1);
    expect(system[0]?.content).toContain('<tool_call>{"name": "TOOL_NAME"');
    expect(system[0]?.content).toMatch(/- read_file: /);
    expect(record.text_tool_calls).toBe(1);
    expect(record.flags.read_notes?.reached).toBe(true);
  });
});
