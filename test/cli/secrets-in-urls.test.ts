/**
 * Credentials in a model server URL (`user:password@`, `?api_key=`): requests still carry them (a
 * server that demands them answers), and every form of the URL that is recorded or shown has them
 * hidden. The end-to-end proof over a real run's results folder is in test/skills/bench.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import { checkServer } from '../../src/models/probe.js';
import { withoutCredentials } from '../../src/report/summary.js';
import { resolveModel } from '../../src/run/resolve-model.js';
import { redactUrl } from '../../src/util/redact-url.js';

const USER = 'bench-user';
const PASSWORD = 'pa:ss@w0rd-SECRET';
const KEY = 'QUERY-KEY-SECRET';
const BASIC = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

let server: Server;
let url: string;
const seen: { path: string; authorized: boolean }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const authorized = req.headers.authorization === BASIC && u.searchParams.get('api_key') === KEY;
    seen.push({ path: u.pathname, authorized });
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (!authorized) return send(401, { error: { message: 'unauthorized' } });
    if (u.pathname === '/v1/models')
      return send(200, { object: 'list', data: [{ id: 'm', object: 'model' }] });
    if (u.pathname === '/v1/chat/completions')
      return send(200, {
        id: 'c1',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    return send(404, { error: { message: 'no route' } });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  url = `http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/v1?api_key=${KEY}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

const leaks = (text: string) =>
  text.includes(PASSWORD) || text.includes(encodeURIComponent(PASSWORD)) || text.includes(KEY);

describe('a base URL with credentials', () => {
  it('is used with them: the model list and a chat request both pass the server that demands them', async () => {
    seen.length = 0;
    expect(await checkServer(url)).toEqual(['m']);
    const model = createOpenAICompatibleModel({
      baseUrl: url,
      model: 'm',
      sampling: { temperature: 0 },
      requestTimeoutMs: 10_000,
      maxRetries: 0,
    });
    const reply = await model.complete([{ role: 'user', content: 'hi' }], []);
    expect(JSON.stringify(reply)).toContain('hello');
    expect(seen).toEqual([
      { path: '/v1/models', authorized: true },
      { path: '/v1/chat/completions', authorized: true },
    ]);
  });

  it('is shown and recorded without them', async () => {
    const shown = redactUrl(url);
    expect(shown).toBe(`http://***@127.0.0.1:${new URL(url).port}/v1?api_key=***`);
    expect(leaks(shown)).toBe(false);
    expect(leaks(withoutCredentials(url) ?? '')).toBe(false);
    // What the runner prints before a run when it picks the model itself.
    const resolved = await resolveModel({
      baseUrl: url,
      apiKeyEnv: 'AGENT_BENCH_TEST_NO_KEY',
      sampling: { temperature: 0 },
      requestTimeoutMs: 10_000,
      retries: 0,
    });
    expect(resolved.notice).toContain('***@127.0.0.1');
    expect(leaks(JSON.stringify({ notice: resolved.notice, warnings: resolved.warnings }))).toBe(false);
  });

  it('redacts what is not even a URL, and leaves plain URLs as they are', () => {
    expect(redactUrl('http://u:p w@host/v1')).not.toContain('p w');
    expect(redactUrl('not a url ?token=abc')).toBe('not a url ?token=***');
    expect(redactUrl('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1');
    expect(redactUrl('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(redactUrl('https://h/v1?api-version=2024-06-01&key=k')).toBe(
      'https://h/v1?api-version=2024-06-01&key=***',
    );
  });
});
