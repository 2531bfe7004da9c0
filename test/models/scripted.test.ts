import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import type { ScriptedTurn } from '../../src/models/scripted.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import {
  lastToolResult,
  type ScriptedServer,
  startScriptedServer,
  turnsToReplies,
} from '../helpers/scripted-server.js';

const TURNS: ScriptedTurn[] = [
  { text: 'Looking.', calls: [{ name: 'read_file', arguments: { path: 'a' } }] },
  { calls: [{ name: 'execute_command', arguments: { command: 'ls' } }] },
];

describe('createScriptedModel', () => {
  it('replays the script as native calls, then answers "done"', async () => {
    const m = createScriptedModel('oracle', TURNS);
    const first = await m.complete([], []);
    expect(first).toMatchObject({
      text: 'Looking.',
      finishReason: 'tool_calls',
      retries: [],
      malformed: null,
    });
    expect(first.toolCalls).toEqual([
      {
        id: 'call_1',
        name: 'read_file',
        rawArguments: '{"path":"a"}',
        arguments: { path: 'a' },
        source: 'native',
      },
    ]);
    expect((await m.complete([], [])).toolCalls[0]).toMatchObject({ id: 'call_2', name: 'execute_command' });
    expect(await m.complete([], [])).toMatchObject({ text: 'done', toolCalls: [], finishReason: 'stop' });
  });

  it('does not let a reply edit the script', async () => {
    const turns: ScriptedTurn[] = [{ calls: [{ name: 'f', arguments: { x: 1 } }] }];
    const reply = await createScriptedModel('oracle', turns).complete([], []);
    (reply.toolCalls[0]?.arguments ?? {}).x = 2;
    expect(turns[0]?.calls[0]?.arguments).toEqual({ x: 1 });
  });

  it('honours an aborted signal', async () => {
    await expect(
      createScriptedModel('oracle', TURNS).complete([], [], AbortSignal.abort()),
    ).rejects.toThrow();
  });
});

describe('scripted server', () => {
  let server: ScriptedServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  const client = (baseUrl: string, model: string) =>
    createOpenAICompatibleModel({
      baseUrl,
      model,
      sampling: { temperature: 0 },
      requestTimeoutMs: 2000,
      maxRetries: 0,
    });

  it('serves turnsToReplies through the real client, then "done"', async () => {
    server = await startScriptedServer({ scripts: { m: turnsToReplies(TURNS) } });
    const m = client(server.baseUrl, 'm');
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = await m.complete([{ role: 'user', content: 'go' }], []);
      names.push(reply.toolCalls.map((c) => c.name).join(',') || reply.text);
    }
    expect(names).toEqual(['read_file', 'execute_command', 'done']);
    expect(server.requests.map((r) => r.index)).toEqual([0, 1, 2]);
  });

  it('runs dynamic scripts on the request body', async () => {
    server = await startScriptedServer({
      scripts: { m: (body, index) => ({ text: `${index}:${lastToolResult(body) ?? 'none'}` }) },
    });
    const m = client(server.baseUrl, 'm');
    const history = [
      { role: 'assistant' as const, content: null, toolCalls: [{ id: 'c1', name: 'f', rawArguments: '{}' }] },
      { role: 'tool' as const, toolCallId: 'c1', content: 'PASS' },
    ];
    expect((await m.complete([{ role: 'user', content: 'go' }], [])).text).toBe('0:none');
    expect((await m.complete(history, [])).text).toBe('1:PASS');
  });

  it('answers 404 for a model without a script', async () => {
    server = await startScriptedServer({ scripts: { m: [] } });
    await expect(client(server.baseUrl, 'other').complete([], [])).rejects.toThrow(
      /HTTP 404: model 'other' not found/,
    );
  });

  it('closes promptly with a request still waiting', async () => {
    server = await startScriptedServer({ scripts: { m: [{ text: 'slow', delayMs: 60_000 }] } });
    const pending = client(server.baseUrl, 'm')
      .complete([], [])
      .catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await server.close();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
