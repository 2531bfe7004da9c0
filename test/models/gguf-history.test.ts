import { describe, expect, it } from 'vitest';
import { toLlamaHistory } from '../../src/models/gguf-history.js';
import type { ChatMessage } from '../../src/models/types.js';

describe('toLlamaHistory', () => {
  it('folds each tool result into the assistant call it answers', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [
          { id: 'call_1', name: 'execute_command', rawArguments: '{"command":"ls"}' },
          { id: 'call_2', name: 'read_file', rawArguments: '{"path":"a.py"}' },
        ],
      },
      { role: 'tool', toolCallId: 'call_1', content: 'a.py' },
      { role: 'tool', toolCallId: 'call_2', content: 'print(1)' },
    ];
    expect(toLlamaHistory(messages)).toEqual([
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'fix it' },
      {
        type: 'model',
        response: [
          'Looking.',
          { type: 'functionCall', name: 'execute_command', params: { command: 'ls' }, result: 'a.py' },
          { type: 'functionCall', name: 'read_file', params: { path: 'a.py' }, result: 'print(1)' },
        ],
      },
    ]);
  });

  it('keeps broken arguments raw, marks a missing result, and shows an orphan result as user text', () => {
    const history = toLlamaHistory([
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 'c1', name: 'write_file', rawArguments: '{"path":' }],
      },
      { role: 'tool', toolCallId: 'elsewhere', content: 'late output' },
    ]);
    expect(history).toEqual([
      {
        type: 'model',
        response: [{ type: 'functionCall', name: 'write_file', params: '{"path":', result: '(no result)' }],
      },
      { type: 'user', text: 'Tool result (elsewhere):\nlate output' },
    ]);
  });

  it('turns a plain assistant answer into a text-only model response', () => {
    expect(toLlamaHistory([{ role: 'assistant', content: 'done', toolCalls: [] }])).toEqual([
      { type: 'model', response: ['done'] },
    ]);
  });
});
