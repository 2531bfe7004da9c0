import { describe, expect, it } from 'vitest';
import { TOOL_SPECS } from '../../src/agent/tools/registry.js';
import { CallIdAllocator } from '../../src/models/call-ids.js';
import { toLlamaFunctions, toParsedToolCalls } from '../../src/models/gguf-functions.js';

describe('toLlamaFunctions', () => {
  it('declares every tool, making optional arguments nullable (node-llama-cpp requires every key)', () => {
    const fns = toLlamaFunctions(TOOL_SPECS);
    expect(Object.keys(fns)).toEqual(['execute_command', 'read_file', 'write_file']);
    expect(fns.read_file?.params).toEqual({
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'Path of the file, absolute or relative to the current directory.',
        },
        offset: {
          oneOf: [{ type: 'integer' }, { type: 'null' }],
          description: 'Byte offset to start reading at (default 0).',
        },
        limit: {
          oneOf: [{ type: 'integer' }, { type: 'null' }],
          description: 'Maximum number of bytes to return.',
        },
      },
    });
    expect(fns.execute_command?.description).toContain('shell command');
  });
});

describe('toParsedToolCalls', () => {
  it('gives each call a fresh id and drops the nulls that stand for omitted optional arguments', () => {
    const ids = new CallIdAllocator();
    const calls = toParsedToolCalls(
      [
        { functionName: 'read_file', params: { path: 'a.py', offset: null, limit: 10 } },
        { functionName: 'execute_command', params: { command: 'ls' } },
      ],
      TOOL_SPECS,
      ids,
    );
    expect(calls).toEqual([
      {
        id: 'call_1',
        name: 'read_file',
        rawArguments: '{"path":"a.py","limit":10}',
        arguments: { path: 'a.py', limit: 10 },
        source: 'native',
      },
      {
        id: 'call_2',
        name: 'execute_command',
        rawArguments: '{"command":"ls"}',
        arguments: { command: 'ls' },
        source: 'native',
      },
    ]);
  });

  it('keeps a required argument even when null, and non-object params as unparsed', () => {
    const calls = toParsedToolCalls(
      [
        { functionName: 'write_file', params: { path: null, content: 'x' } },
        { functionName: 'execute_command', params: undefined },
      ],
      TOOL_SPECS,
      new CallIdAllocator(),
    );
    expect(calls[0]?.arguments).toEqual({ path: null, content: 'x' });
    expect(calls[1]).toMatchObject({ rawArguments: 'null', arguments: null });
  });
});
