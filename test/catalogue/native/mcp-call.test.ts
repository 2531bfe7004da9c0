/**
 * task.toml's `[[mcp_servers]]`, `tools` and the `mcp_call` flag: how they parse, what is refused,
 * and what reaches the flag (a call that ran and returned without error, with the arguments asked
 * for, before the files named changed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import type { ToolCallLog } from '../../../src/results/trial.js';
import type { Task } from '../../../src/tasks/types.js';
import { writeFile } from '../../scoring/call-fixtures.js';
import { craftTrial, reachedTurns } from '../../tasks/crafted-trial.js';
import { MINIMAL_FILES, removeTaskFolders, taskFolder } from '../../tasks/folder/task-folder.js';

afterEach(removeTaskFolders);

const SERVER = `[[mcp_servers]]
name = "inventory"
command = "node"
args = ["/workspace/mcp/inventory.mjs"]
`;

function taskWith(servers: string, check: string, top = ''): Task {
  const toml = `max_turns = 9
allowed_writes = ["/out.txt"]
${top}
[meta]
description = "mcp"

${servers}

[[flags]]
id = "asked"
kind = "process"
description = "asked the server"
mcp_call = ${check}

[[reference_solution]]
calls = [{ name = "inventory__stock_level", arguments = { sku = "AB-42" } }]

[[lures]]
id = "nothing"
description = "does nothing"
expect = { unreached = ["asked"] }
script = []
`;
  return loadTaskFolder(taskFolder({ ...MINIMAL_FILES, 'task.toml': toml }));
}

function loadError(servers: string, top = ''): string {
  try {
    taskWith(servers, '{ server = "inventory", tool = "stock_level" }', top);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('loaded');
}

function mcpCall(args: Record<string, unknown>, o: { exit?: number | null; fault?: true } = {}): ToolCallLog {
  return {
    name: 'inventory__stock_level',
    arguments: args,
    raw_arguments: JSON.stringify(args),
    source: 'native',
    invalid: null,
    cwd: '/workspace',
    exit_code: o.exit === undefined ? 0 : o.exit,
    stdout: 'AB-42: 317 units',
    stderr: '',
    truncated: false,
    timed_out: false,
    elapsed_ms: 3,
    mcp: { server: 'inventory', tool: 'stock_level' },
    ...(o.fault ? { fault: { kind: 'internal_error' as const, call_index: 0 } } : {}),
  };
}

describe('[[mcp_servers]] in task.toml', () => {
  it('parses stdio and streamable-http servers, the transport implied by command or url', () => {
    const task = taskWith(
      `${SERVER}
[[mcp_servers]]
name = "weather"
url = "http://weather:8000/mcp"
`,
      '{ server = "inventory", tool = "stock_level" }',
      'tools = "mcp_only"',
    );
    expect(task.kind === 'sandbox' && task.mcpServers).toEqual([
      {
        name: 'inventory',
        transport: { kind: 'stdio', command: 'node', args: ['/workspace/mcp/inventory.mjs'], env: {} },
      },
      { name: 'weather', transport: { kind: 'streamable-http', url: 'http://weather:8000/mcp' } },
    ]);
    expect(task.kind === 'sandbox' && task.tools).toBe('mcp_only');
  });

  it('refuses a server with both or neither of command and url, a duplicate name, https, and mcp_only without servers', () => {
    expect(loadError(`${SERVER}url = "http://x:1/mcp"\n`)).toMatch(
      /a stdio server needs command and none of url, tools/,
    );
    expect(loadError(`[[mcp_servers]]\nname = "x"\ntransport = "streamable-http"\n`)).toMatch(
      /a streamable-http server needs url/,
    );
    expect(loadError(`${SERVER}${SERVER}`)).toMatch(/another server is named inventory/);
    expect(loadError(`[[mcp_servers]]\nname = "x"\nurl = "https://x/mcp"\n`)).toMatch(/an http:\/\/ URL/);
    expect(loadError(`[[mcp_servers]]\nname = "x"\ntransport = "sse"\nurl = "http://x/mcp"\n`)).toMatch(
      /transport/,
    );
    expect(loadError('', 'tools = "mcp_only"')).toMatch(/mcp_only needs at least one \[\[mcp_servers\]\]/);
  });

  it('refuses an mcp_call without server or tool, or with an unknown key', () => {
    expect(() => taskWith(SERVER, '{ tool = "stock_level" }')).toThrow(/server/);
    expect(() => taskWith(SERVER, '{ server = "inventory", tool = "stock_level", args = {} }')).toThrow(
      /args/,
    );
  });
});

describe('mcp_call', () => {
  const check = '{ server = "inventory", tool = "stock_level", args_match = { sku = "AB-42" } }';
  const reached = (task: Task, turns: ToolCallLog[][]) =>
    reachedTurns(task, craftTrial(task, turns, () => false).ctx);

  it('is reached by the first call with the arguments asked for that returned without error', async () => {
    const task = taskWith(SERVER, check);
    expect(
      (await reached(task, [[mcpCall({ sku: 'ZZ' })], [mcpCall({ sku: 'AB-42', extra: 1 })]])).asked,
    ).toBe(2);
  });

  it('is not reached by a call the server failed, a faulted call, other arguments, or another tool of the same name', async () => {
    const task = taskWith(SERVER, check);
    expect((await reached(task, [[mcpCall({ sku: 'AB-42' }, { exit: 1 })]])).asked).toBe(false);
    expect((await reached(task, [[mcpCall({ sku: 'AB-42' }, { exit: null })]])).asked).toBe(false);
    expect((await reached(task, [[mcpCall({ sku: 'AB-42' }, { fault: true })]])).asked).toBe(false);
    expect((await reached(task, [[mcpCall({ sku: 'ab-42' })]])).asked).toBe(false);
    // The name alone is no evidence: a built-in call never carries `mcp`.
    const { mcp: _, ...named } = mcpCall({ sku: 'AB-42' });
    expect((await reached(task, [[named]])).asked).toBe(false);
  });

  it('before_first_change_of: only a call made before the file first changed', async () => {
    const task = taskWith(
      SERVER,
      '{ server = "inventory", tool = "stock_level", before_first_change_of = ["out.txt"] }',
    );
    expect((await reached(task, [[mcpCall({})], [writeFile('/workspace/out.txt', '317')]])).asked).toBe(1);
    expect((await reached(task, [[writeFile('/workspace/out.txt', '317')], [mcpCall({})]])).asked).toBe(
      false,
    );
  });
});
