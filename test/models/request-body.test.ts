import { describe, expect, it } from 'vitest';
import { buildChatRequest, toWireMessage } from '../../src/models/request-body.js';

describe('buildChatRequest', () => {
  const tool = { name: 'read_file', description: 'Read a file', parameters: { type: 'object' } };

  it('sends tools in function form and only the sampling that is set', () => {
    const body = buildChatRequest('m', [{ role: 'user', content: 'hi' }], [tool], {
      temperature: 0,
      seed: 42,
    });
    expect(body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: tool }],
      temperature: 0,
      seed: 42,
      stream: false,
    });
  });

  it('maps topP and maxTokens, and sends no tools key when there are none', () => {
    const body = buildChatRequest('m', [], [], { temperature: 0.2, topP: 1, maxTokens: 512 });
    expect(body).toMatchObject({ top_p: 1, max_tokens: 512 });
    expect('tools' in body).toBe(false);
  });
});

describe('toWireMessage', () => {
  it('converts assistant tool calls with their raw argument strings', () => {
    const wire = toWireMessage({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c1', name: 'read_file', rawArguments: '{"path": "a"}' }],
    });
    expect(wire).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path": "a"}' } },
      ],
    });
  });

  it('replays broken arguments as {} so template servers do not fail on the history', () => {
    const wire = toWireMessage({
      role: 'assistant',
      content: 'x',
      toolCalls: [{ id: 'c', name: 'f', rawArguments: '{"a": ' }],
    });
    expect(wire).toMatchObject({ tool_calls: [{ function: { arguments: '{}' } }] });
  });

  it('re-encodes arguments whose strings held raw newlines', () => {
    const wire = toWireMessage({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'c', name: 'f', rawArguments: '{"a": "1\n2"}' }],
    });
    expect(wire).toMatchObject({ tool_calls: [{ function: { arguments: '{"a":"1\\n2"}' } }] });
  });

  it('converts tool results and plain assistant text', () => {
    expect(toWireMessage({ role: 'tool', toolCallId: 'c1', content: 'ok' })).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: 'ok',
    });
    expect(toWireMessage({ role: 'assistant', content: null, toolCalls: [] })).toEqual({
      role: 'assistant',
      content: '',
    });
  });
});
