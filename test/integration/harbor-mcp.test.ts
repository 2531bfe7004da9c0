/**
 * The cookbook's mcp-tools form end to end: a Harbor task whose `[[environment.mcp_servers]]` is
 * a streamable-HTTP server at http://mcp-server:8000/mcp, run as a service of its compose file
 * (a small Node server written with the SDK, built offline on the sandbox image). The model is
 * offered its tool; a scripted model that calls it passes, one that writes the right answer
 * without calling it fails (the verifier asks the server what it answered), and the call is in
 * the transcript as an MCP call.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/index.js';
import { SERVICE_LABEL } from '../../src/sandbox/services/service-container.js';
import { runHarborCli } from '../helpers/harbor-cli.js';
import { type ScriptedReply, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/harbor-mcp');

const ask: ScriptedReply = { calls: [{ name: 'mcp-server__stock_level', arguments: { sku: 'AB-42' } }] };
const write: ScriptedReply = {
  calls: [{ name: 'write_file', arguments: { path: '/app/answer.txt', content: '317' } }],
};
const done: ScriptedReply = { text: 'AB-42: 317 units.' };

let base = '';
let scratch = '';
let task = '';
let server: ScriptedServer;

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-mcp-'));
  // The task with its server (the mcp-tools test's, over HTTP) bundled with the SDK into one file,
  // its service's server.mjs: the image has node, not the SDK.
  task = join(scratch, 'harbor-mcp');
  cpSync(FIXTURE, task, { recursive: true });
  await build({
    input: join(import.meta.dirname, 'fixtures/mcp-inventory/server/http-inventory.mjs'),
    platform: 'node',
    output: { file: join(task, 'environment/mcp-server/server.mjs'), format: 'esm' },
    logLevel: 'silent',
  });
  server = await startScriptedServer({ scripts: { asker: [ask, write, done], guesser: [write, done] } });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const scripted = (name: string) =>
  runHarborCli(scratch, task, ['--base-image', base, '--model', name, '--base-url', server.baseUrl]);
/** The MCP server's containers on the engine: none once a run is over. */
const leftovers = () =>
  execFileSync('docker', ['ps', '-aq', '--filter', `label=${SERVICE_LABEL}=mcp-server`], {
    encoding: 'utf8',
  }).trim();

describe.sequential('a Harbor task whose MCP server is a compose service', () => {
  it('a model that calls the server’s tool passes, and the call is an MCP call of the transcript', async () => {
    const { code, stderr, result } = await scripted('asker');
    expect(code, stderr).toBe(0);
    const offered = server.requests[0]?.body.tools?.map((t) =>
      t.type === 'function' ? t.function.name : t.type,
    );
    expect(offered).toContain('mcp-server__stock_level');
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('passed');
    expect(trial?.turn_logs[0]?.tool_calls[0]).toMatchObject({
      name: 'mcp-server__stock_level',
      arguments: { sku: 'AB-42' },
      mcp: { server: 'mcp-server', tool: 'stock_level' },
      exit_code: 0,
      stdout: 'AB-42: 317 units in stock',
    });
    expect(trial?.harbor_verifier?.output).toBe('answer: 317; asked the server: True');
    expect(leftovers()).toBe('');
  }, 600_000);

  it('a model that writes the answer without calling the tool fails: the server was never asked', async () => {
    const { result } = await scripted('guesser');
    const trial = result.trials[0];
    expect(trial?.status).toBe('failed');
    expect(trial?.flags.reward?.reached).toBe(false);
    expect(trial?.harbor_verifier?.output).toBe('answer: 317; asked the server: False');
    expect(trial?.turn_logs.flatMap((t) => t.tool_calls).some((c) => c.mcp !== undefined)).toBe(false);
    expect(leftovers()).toBe('');
  }, 600_000);
});
