/**
 * MCP servers as the model's tools, end to end: a small server written with the SDK runs over stdio
 * inside the sandbox container (bundled with the SDK into one file: the image has node, not the
 * SDK), the model is offered its tools beside the built-in three, and the mcp_call flag is reached
 * only by a call that really ran and answered.
 */
import { cp, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'rolldown';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServers } from '../../src/agent/mcp/connect.js';
import { loadTaskFolder } from '../../src/catalogue/native/load.js';
import { DISPATCH_LIMITS } from '../../src/run/settings.js';
import type { Task } from '../../src/tasks/types.js';
import type { ScriptedReply } from '../helpers/scripted-server.js';
import { openSandbox } from '../sandbox/fixture.js';
import { benchWithScript, only } from './bench-harness.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'mcp-inventory');

const ask: ScriptedReply = { calls: [{ name: 'inventory__stock_level', arguments: { sku: 'AB-42' } }] };
const write: ScriptedReply = {
  calls: [{ name: 'write_file', arguments: { path: 'answer.txt', content: '317' } }],
};
const done: ScriptedReply = { text: 'AB-42: 317 units.' };

/** A copy of the fixture with the servers bundled into files/mcp/. */
async function bundled(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-bench-mcp-'));
  await cp(FIXTURE, dir, { recursive: true });
  for (const name of ['inventory.mjs', 'http-inventory.mjs'])
    await build({
      input: join(FIXTURE, 'server', name),
      platform: 'node',
      output: { file: join(dir, 'files', 'mcp', name), format: 'esm' },
      logLevel: 'silent',
    });
  return dir;
}

async function inventoryTask(): Promise<Task> {
  return loadTaskFolder(await bundled());
}

describe.sequential('MCP servers as tools', () => {
  let task: Task;
  beforeAll(async () => {
    task = await inventoryTask();
  }, 60_000);

  it('offers the server tools by prefixed name, and a model that calls the right one passes', async () => {
    const run = await benchWithScript({ tasks: [task], script: [ask, write, done] });
    const result = only(run);
    const offered = run.requests[0]?.body.tools?.map((t) =>
      t.type === 'function' ? t.function.name : t.type,
    );
    expect(offered).toEqual(['execute_command', 'read_file', 'write_file', 'inventory__stock_level']);
    const trial = result.trials[0];
    expect(trial?.status).toBe('passed');
    expect(trial?.flags.asked_inventory?.reached).toBe(true);
    const call = trial?.turn_logs[0]?.tool_calls[0];
    expect(call).toMatchObject({
      name: 'inventory__stock_level',
      arguments: { sku: 'AB-42' },
      mcp: { server: 'inventory', tool: 'stock_level' },
      exit_code: 0,
      stdout: 'AB-42: 317 units in stock',
    });
    // The model was shown the server's answer.
    const shown = run.requests[1]?.body.messages.at(-1);
    expect(JSON.stringify(shown)).toContain('317 units in stock');
  });

  it('a model that answers without calling the tool misses the evidence flag', async () => {
    const result = only(await benchWithScript({ tasks: [task], script: [write, done] }));
    const trial = result.trials[0];
    expect(trial?.flags.answer_right?.reached).toBe(true);
    expect(trial?.flags.asked_inventory?.reached).toBe(false);
    expect(trial?.passed).toBe(false);
  });

  it('a call the server answers with an error is logged as one and is no evidence', async () => {
    const wrong: ScriptedReply = { calls: [{ name: 'inventory__stock_level', arguments: { sku: 'ZZ-1' } }] };
    const result = only(await benchWithScript({ tasks: [task], script: [wrong, write, done] }));
    const trial = result.trials[0];
    expect(trial?.turn_logs[0]?.tool_calls[0]).toMatchObject({ exit_code: 1, stderr: 'unknown SKU ZZ-1' });
    expect(trial?.flags.asked_inventory?.reached).toBe(false);
  });

  it('over streamable HTTP: the harness reaches a server inside the sandbox through the container, no port published', async () => {
    const sandbox = await openSandbox();
    try {
      const dir = await bundled();
      const server = await readFile(join(dir, 'files', 'mcp', 'http-inventory.mjs'), 'utf8');
      await sandbox.putFiles([{ path: 'http-inventory.mjs', content: server }]);
      // Kept running by its attached exec (a setup command's processes are killed before the trial).
      const proc = await sandbox.spawn(['node', '/workspace/http-inventory.mjs'], {
        user: 'agent',
        cwd: '/workspace',
      });
      const wait = `for i in $(seq 1 100); do node -e "require('net').connect(8000, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))" && exit 0; sleep 0.1; done; exit 1`;
      expect((await sandbox.exec(['bash', '-c', wait])).exitCode, proc.stderrTail()).toBe(0);
      const mcp = await connectMcpServers(
        [{ name: 'inventory', transport: { kind: 'streamable-http', url: 'http://127.0.0.1:8000/mcp' } }],
        sandbox,
        30_000,
      );
      try {
        expect(mcp.tools.map((t) => t.spec.name)).toEqual(['inventory__stock_level']);
        const run = mcp.tools[0]?.prepare({ sku: 'AB-42' }, sandbox, {
          ...DISPATCH_LIMITS,
          commandTimeoutMs: 30_000,
        });
        const outcome = run?.ok === true ? await run.args() : null;
        expect(outcome?.log).toMatchObject({ exit_code: 0, stdout: 'AB-42: 317 units in stock' });
      } finally {
        await mcp.close();
        await proc.end();
      }
    } finally {
      await sandbox.dispose();
    }
  });

  it('a server that cannot start makes an error trial that says why, not a failed one', async () => {
    const broken: Task = {
      ...task,
      mcpServers: [
        {
          name: 'inventory',
          transport: { kind: 'stdio', command: 'node', args: ['/workspace/mcp/missing.mjs'], env: {} },
        },
      ],
    } as Task;
    const result = only(await benchWithScript({ tasks: [broken], script: [ask, write, done] }));
    const trial = result.trials[0];
    expect(trial?.status).toBe('error');
    expect(trial?.failure_reason).toMatch(
      /MCP server inventory \(stdio: node \/workspace\/mcp\/missing\.mjs\) could not be reached: .*; its stderr: Error: Cannot find module '\/workspace\/mcp\/missing\.mjs'/,
    );
  });
});
