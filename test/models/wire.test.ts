import { describe, expect, it } from 'vitest';
import { CallIdAllocator } from '../../src/models/call-ids.js';
import { readCompletion } from '../../src/models/wire.js';

const reply = (message: unknown, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }], ...extra });

describe('readCompletion', () => {
  it('reads text, usage and finish_reason', () => {
    const out = readCompletion(
      reply({ content: 'hi' }, { usage: { prompt_tokens: 10, completion_tokens: 2 } }),
      new CallIdAllocator(),
    );
    expect(out).toEqual({
      text: 'hi',
      toolCalls: [],
      usage: { prompt_tokens: 10, completion_tokens: 2 },
      finishReason: 'stop',
      malformed: null,
    });
  });

  it('accepts arguments as a JSON string or as an object', () => {
    const out = readCompletion(
      reply({
        content: null,
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path": "x"}' } },
          { id: 'b', type: 'function', function: { name: 'read_file', arguments: { path: 'y' } } },
        ],
      }),
      new CallIdAllocator(),
    );
    expect(out.toolCalls).toEqual([
      {
        id: 'a',
        name: 'read_file',
        rawArguments: '{"path": "x"}',
        arguments: { path: 'x' },
        source: 'native',
      },
      {
        id: 'b',
        name: 'read_file',
        rawArguments: '{"path":"y"}',
        arguments: { path: 'y' },
        source: 'native',
      },
    ]);
    expect(out.text).toBe('');
  });

  it('keeps unparseable arguments raw with arguments null', () => {
    const out = readCompletion(
      reply({ tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{"path": ' } }] }),
      new CallIdAllocator(),
    );
    expect(out.toolCalls[0]).toMatchObject({ rawArguments: '{"path": ', arguments: null });
  });

  it('makes ids unique when missing or repeated, across replies of one model', () => {
    const ids = new CallIdAllocator();
    const call = (id?: string) => ({
      ...(id === undefined ? {} : { id }),
      function: { name: 'f', arguments: '{}' },
    });
    const first = readCompletion(reply({ tool_calls: [call('call_0'), call()] }), ids);
    const second = readCompletion(reply({ tool_calls: [call('call_0'), call('call_0')] }), ids);
    const all = [...first.toolCalls, ...second.toolCalls].map((c) => c.id);
    expect(all[0]).toBe('call_0');
    expect(new Set(all).size).toBe(4);
  });

  it('ignores reasoning_content and reads content only', () => {
    const out = readCompletion(
      reply({ content: 'answer', reasoning_content: '<tool_call>{"name": "f", "arguments": {}}' }),
      new CallIdAllocator(),
    );
    expect(out).toMatchObject({ text: 'answer', toolCalls: [], malformed: null });
  });

  it('parses text-format calls when there are no native ones', () => {
    const text = 'Reading.\n<tool_call>{"name": "read_file", "arguments": {"path": "a"}}</tool_call>';
    const out = readCompletion(reply({ content: text }), new CallIdAllocator());
    expect(out.text).toBe('Reading.');
    expect(out.toolCalls).toEqual([
      {
        id: 'call_1',
        name: 'read_file',
        rawArguments: '{"path":"a"}',
        arguments: { path: 'a' },
        source: 'text',
      },
    ]);
  });

  it('sets malformed for a broken text-format call', () => {
    const out = readCompletion(
      reply({ content: '<tool_call>{"name": "read_file", "arg</tool_call>' }),
      new CallIdAllocator(),
    );
    expect(out.toolCalls).toEqual([]);
    expect(out.malformed).toMatch(/^<tool_call>: /);
  });

  it('does not read text calls when native calls are present', () => {
    const message = {
      content: '{"name": "read_file", "arguments": {"path": "text"}}',
      tool_calls: [{ id: 'n', function: { name: 'read_file', arguments: '{"path": "native"}' } }],
    };
    const out = readCompletion(reply(message), new CallIdAllocator());
    expect(out.toolCalls.map((c) => c.source)).toEqual(['native']);
  });

  it.each([
    ['not JSON', '<html>502 Bad Gateway</html>', /^reply body is not JSON/],
    ['no choices', JSON.stringify({ choices: [] }), /^reply has no choices/],
    [
      'an error object',
      JSON.stringify({ error: { message: 'context overflow' } }),
      /server said: context overflow/,
    ],
    [
      'a message that is not an object',
      JSON.stringify({ choices: [{ message: 'hi' }] }),
      /no choices\[0\]\.message/,
    ],
  ])('turns %s into a malformed reply, not an exception', (_label, body, reason) => {
    const out = readCompletion(body, new CallIdAllocator());
    expect(out.toolCalls).toEqual([]);
    expect(out.malformed).toMatch(reason);
  });

  it('notes tool_calls entries without a function but keeps the others', () => {
    const out = readCompletion(
      reply({ tool_calls: [{ id: 'x' }, { id: 'y', function: { name: 'f', arguments: '{}' } }] }),
      new CallIdAllocator(),
    );
    expect(out.toolCalls.map((c) => c.id)).toEqual(['y']);
    expect(out.malformed).toBe('tool_calls[0] has no function');
  });

  it('reads text from content-part arrays, and a missing usage as null', () => {
    const out = readCompletion(
      reply({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
      new CallIdAllocator(),
    );
    expect(out).toMatchObject({ text: 'ab', usage: null });
  });
});
