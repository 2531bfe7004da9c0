import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createOpenAICompatibleModel,
  type OpenAICompatibleOptions,
} from '../../src/models/openai-compatible.js';
import { DEFAULT_REPLY_TOKENS } from '../../src/models/reply-bound.js';
import {
  type ChatMessage,
  ModelRequestError,
  ModelTimeoutError,
  type ToolSpec,
} from '../../src/models/types.js';
import {
  type ScriptedServer,
  type ScriptedServerOptions,
  startScriptedServer,
  unusedPortUrl,
} from '../helpers/scripted-server.js';

const MODEL = 'test-model';
const SECRET = 'sk-test-5ecret-never-shown';
const USER: ChatMessage[] = [{ role: 'user', content: 'go' }];
const TOOLS: ToolSpec[] = [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object' } }];

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(scripts: ScriptedServerOptions['scripts']): Promise<ScriptedServer> {
  server = await startScriptedServer({ scripts });
  return server;
}

function model(baseUrl: string, extra: Partial<OpenAICompatibleOptions> = {}) {
  return createOpenAICompatibleModel({
    baseUrl,
    model: MODEL,
    sampling: { temperature: 0, seed: 7 },
    requestTimeoutMs: 2000,
    maxRetries: 3,
    retryBaseMs: 5,
    retryMaxWaitMs: 2000,
    env: { AGENT_BENCH_API_KEY: SECRET },
    ...extra,
  });
}

describe('OpenAI-compatible model over HTTP', () => {
  it('sends the request through the openai client and reads native calls', async () => {
    const s = await serve({ [MODEL]: [{ calls: [{ name: 'read_file', arguments: { path: 'a' } }] }] });
    const reply = await model(s.baseUrl).complete(USER, TOOLS);
    expect(reply.toolCalls).toEqual([
      {
        id: 'call_srv_1',
        name: 'read_file',
        rawArguments: '{"path":"a"}',
        arguments: { path: 'a' },
        source: 'native',
      },
    ]);
    expect(reply).toMatchObject({ finishReason: 'tool_calls', retries: [], malformed: null });
    expect(reply.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(s.requests[0]?.body).toMatchObject({
      model: MODEL,
      temperature: 0,
      seed: 7,
      tools: [{ type: 'function' }],
    });
    expect(s.requests[0]?.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('records one retry for a 503 then success, outside latency', async () => {
    const s = await serve({
      [MODEL]: [
        { status: 503, error: 'Loading model' },
        { text: 'ok', delayMs: 0 },
      ],
    });
    const reply = await model(s.baseUrl, { retryBaseMs: 200 }).complete(USER, TOOLS);
    expect(reply.text).toBe('ok');
    expect(reply.retries).toHaveLength(1);
    expect(reply.retries[0]).toMatchObject({ attempt: 1, reason: 'HTTP 503: Loading model' });
    expect(reply.retries[0]?.waitMs).toBeGreaterThanOrEqual(100);
    expect(reply.latencyMs).toBeLessThan(reply.retries[0]?.waitMs ?? 0);
  });

  it('honours Retry-After in seconds on 429', async () => {
    const s = await serve({ [MODEL]: [{ status: 429, retryAfter: 1 }, { text: 'ok' }] });
    const started = Date.now();
    const reply = await model(s.baseUrl).complete(USER, TOOLS);
    expect(reply.retries).toEqual([{ attempt: 1, reason: 'HTTP 429: scripted HTTP 429', waitMs: 1000 }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('caps Retry-After at the maximum wait', async () => {
    const s = await serve({ [MODEL]: [{ status: 429, retryAfter: 3600 }, { text: 'ok' }] });
    const reply = await model(s.baseUrl, { retryMaxWaitMs: 20 }).complete(USER, TOOLS);
    expect(reply.retries[0]?.waitMs).toBe(20);
  });

  it('does not retry a 400 and says why', async () => {
    const s = await serve({
      [MODEL]: [{ status: 400, error: "unsupported parameter 'tools'" }, { text: 'never' }],
    });
    const err = await model(s.baseUrl)
      .complete(USER, TOOLS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelRequestError);
    expect((err as ModelRequestError).retries).toEqual([]);
    expect((err as ModelRequestError).failure).toEqual({ kind: 'rejected' });
    expect((err as ModelRequestError).message).toMatch(/failed: HTTP 400: unsupported parameter 'tools'$/);
    expect(s.requests).toHaveLength(1);
  });

  it("reads llama-server's context overflow with its numbers, and does not retry it", async () => {
    const s = await serve({
      [MODEL]: [
        {
          status: 400,
          // llama-server's own body (server: exceed_context_size_error).
          errorBody: {
            error: {
              code: 400,
              message:
                'request (17034 tokens) exceeds the available context size (16384 tokens), try increasing it',
              type: 'exceed_context_size_error',
              n_prompt_tokens: 17034,
              n_ctx: 16384,
            },
          },
        },
        // Older llama-server: HTTP 500 and the numbers only in words; newer: no numbers at all.
        {
          status: 500,
          error: 'request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it',
        },
        { status: 500, error: 'Context size has been exceeded.' },
      ],
    });
    const m = model(s.baseUrl);
    const failures: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const err = await m.complete(USER, TOOLS).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelRequestError);
      expect((err as ModelRequestError).retries).toEqual([]);
      failures.push((err as ModelRequestError).failure);
    }
    expect(failures).toEqual([
      { kind: 'context_overflow', promptTokens: 17034, contextSize: 16384 },
      { kind: 'context_overflow', promptTokens: 9000, contextSize: 8192 },
      { kind: 'context_overflow', promptTokens: null, contextSize: null },
    ]);
    expect(s.requests).toHaveLength(3);
  });

  it("a reply cut off because prompt and reply filled the context is context_overflow, a --max-tokens cut the model's", async () => {
    const cut = '<tool_call>\n{"name": "';
    const s = await serve({
      [MODEL]: [
        // llama-server with -c 768: the prompt fits, the reply fills the rest and is stopped.
        { text: cut, finishReason: 'length', usage: { prompt_tokens: 762, completion_tokens: 6 } },
        // Stopped by max_tokens far from the context: the model's own (cut) reply.
        { text: cut, finishReason: 'length', usage: { prompt_tokens: 300, completion_tokens: 6 } },
        { text: cut, finishReason: 'length', usage: { prompt_tokens: 762, completion_tokens: 6 } },
      ],
    });
    const m = model(s.baseUrl, { contextLength: 768 });
    const err = await m.complete(USER, TOOLS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelRequestError);
    expect((err as ModelRequestError).failure).toEqual({
      kind: 'context_overflow',
      promptTokens: 762,
      contextSize: 768,
    });
    expect((err as ModelRequestError).message).toMatch(
      /ran out of context: 762 prompt \+ 6 reply tokens fill the server's context of 768$/,
    );
    const own = await m.complete(USER, TOOLS);
    expect(own).toMatchObject({ text: cut, finishReason: 'length' });
    // Without the server's context nothing can be told: the reply is the model's.
    const unknown = await model(s.baseUrl).complete(USER, TOOLS);
    expect(unknown.finishReason).toBe('length');
  });

  it('llama-server without --jinja (HTTP 500 for every request with tools) is rejected at once, saying what to do', async () => {
    const s = await serve({
      [MODEL]: [{ status: 500, error: 'tools param requires --jinja flag' }, { text: 'never asked' }],
    });
    const err = await model(s.baseUrl)
      .complete(USER, TOOLS)
      .catch((e: unknown) => e);
    expect((err as ModelRequestError).failure).toEqual({ kind: 'rejected' });
    expect((err as ModelRequestError).message).toMatch(
      /tools param requires --jinja flag.*restart llama-server with --jinja/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('a model the server does not have (404) and a refused key (401) are not retried', async () => {
    const s = await serve({ [MODEL]: [{ status: 401, error: 'invalid api key' }] });
    const missing = await model(s.baseUrl, { model: 'not-served' })
      .complete(USER, TOOLS)
      .catch((e: unknown) => e);
    expect((missing as ModelRequestError).failure).toEqual({ kind: 'model_not_found' });
    const refused = await model(s.baseUrl)
      .complete(USER, TOOLS)
      .catch((e: unknown) => e);
    expect((refused as ModelRequestError).failure).toEqual({ kind: 'unauthorized' });
    expect(s.requests).toHaveLength(1); // the 404 is not recorded by the scripted server
  });

  it("a tool call llama-server's parser rejects is the model's malformed reply, raw output kept, not retried", async () => {
    const output = '<tool_call>{"name": "read_file", "arguments": {"path": </tool_call>';
    const s = await serve({
      [MODEL]: [
        { status: 500, error: `Failed to parse input at pos 0: ${output}` },
        {
          status: 500,
          error: 'The model produced output that does not match the expected peg-native format',
        },
        { text: 'never asked' },
      ],
    });
    const m = model(s.baseUrl);
    const quoted = await m.complete(USER, TOOLS);
    expect(quoted).toMatchObject({ text: output, toolCalls: [], retries: [] });
    expect(quoted.malformed).toMatch(
      /^the server could not parse the model's output \(HTTP 500: Failed to parse/,
    );
    const unquoted = await m.complete(USER, TOOLS);
    expect(unquoted).toMatchObject({ text: '', toolCalls: [], retries: [] });
    expect(unquoted.malformed).toMatch(/does not match the expected peg-native format/);
    expect(s.requests).toHaveLength(2);
  });

  it('a 5xx that outlasts the retries is a server error, each retry recorded', async () => {
    const s = await serve({
      [MODEL]: [{ status: 503, error: 'Loading model' }, { status: 502 }, { status: 500 }],
    });
    const err = await model(s.baseUrl, { maxRetries: 2 })
      .complete(USER, TOOLS)
      .catch((e: unknown) => e);
    expect((err as ModelRequestError).failure).toEqual({ kind: 'server_error' });
    expect((err as ModelRequestError).retries.map((r) => r.reason)).toEqual([
      'HTTP 503: Loading model',
      'HTTP 502: scripted HTTP 502',
    ]);
  });

  it('a reply past the byte cap is cut off unread and becomes a malformed reply, not retried', async () => {
    const huge = 'all work and no play '.repeat(10_000);
    const s = await serve({ [MODEL]: [{ text: huge }, { text: 'small enough' }] });
    const m = model(s.baseUrl, { maxReplyBytes: 64 * 1024 });
    const cut = await m.complete(USER, TOOLS);
    expect(cut).toMatchObject({ text: '', toolCalls: [], retries: [] });
    expect(cut.malformed).toBe('the reply was larger than 65536 bytes and was cut off unread');
    expect((await m.complete(USER, TOOLS)).text).toBe('small enough');
    expect(s.requests).toHaveLength(2);
  });

  it('gives up after maxRetries on a closed port with every retry recorded', async () => {
    const url = await unusedPortUrl();
    const err = await model(url, { maxRetries: 2 })
      .complete(USER, TOOLS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelRequestError);
    const failure = err as ModelRequestError;
    expect(failure.retries.map((r) => r.attempt)).toEqual([1, 2]);
    expect(failure.retries[0]?.reason).toBe('connection failed: ECONNREFUSED');
    expect(failure.failure).toEqual({ kind: 'unreachable' });
    expect(failure.message).toBe(
      `model request to ${url} (${MODEL}) failed after 2 retries: connection failed: ECONNREFUSED`,
    );
  });

  it('retries a connection dropped before the headers and one dropped mid-body', async () => {
    const s = await serve({ [MODEL]: [{ drop: 'before-headers' }, { drop: 'mid-body' }, { text: 'ok' }] });
    const reply = await model(s.baseUrl).complete(USER, TOOLS);
    expect(reply.text).toBe('ok');
    expect(reply.retries.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^connection failed/),
      expect.stringMatching(/^connection dropped while reading the reply/),
    ]);
  });

  it("times out a slow attempt, does not retry it, and makes it the model's failure while the server answers", async () => {
    // Long enough that a loaded machine still delivers the request before the timeout.
    const s = await serve({ [MODEL]: [{ text: 'late', delayMs: 8000 }, { text: 'ok' }] });
    const started = Date.now();
    const err = await model(s.baseUrl, { requestTimeoutMs: 1500 })
      .complete(USER, TOOLS)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelTimeoutError);
    const timeout = err as ModelTimeoutError;
    // The time really waited, stated in seconds: not a configured number the wait never reached.
    expect(timeout.elapsedMs).toBeGreaterThanOrEqual(1500);
    expect(timeout.elapsedMs).toBeLessThanOrEqual(Date.now() - started);
    expect(timeout.message).toMatch(
      /timed out: no reply within the request timeout of 1\.5 s \(waited 1\.\d s\) \(the server still answers/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it("makes a timeout the infrastructure's failure when the server no longer answers its model list", async () => {
    // Accepts connections and never answers anything: the chat request and the probe both time out.
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const err = await model(`http://127.0.0.1:${port}/v1`, { requestTimeoutMs: 300, probeTimeoutMs: 300 })
        .complete(USER, TOOLS)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelRequestError);
      expect((err as ModelRequestError).failure).toEqual({ kind: 'unreachable' });
      expect((err as Error).message).toMatch(
        /timed out: .*, and then model server at .* is unreachable: no answer within 300 ms/,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('bounds every reply: what the context leaves after the prompt, at most the default, or --max-tokens', async () => {
    const s = await serve({ [MODEL]: [{ text: 'a' }, { text: 'b' }, { text: 'c' }, { text: 'd' }] });
    await model(s.baseUrl).complete(USER, TOOLS);
    await model(s.baseUrl, { contextLength: 1000 }).complete(USER, TOOLS);
    await model(s.baseUrl, { contextLength: 100_000 }).complete(USER, TOOLS);
    await model(s.baseUrl, { contextLength: 1000, sampling: { temperature: 0, maxTokens: 77 } }).complete(
      USER,
      TOOLS,
    );
    const bounds = s.requests.map((r) => (r.body as { max_tokens?: unknown }).max_tokens);
    const prompt = Math.ceil(
      (JSON.stringify(s.requests[1]?.body.messages).length +
        JSON.stringify(s.requests[1]?.body.tools).length) /
        3,
    );
    expect(bounds).toEqual([DEFAULT_REPLY_TOKENS, 1000 - prompt, DEFAULT_REPLY_TOKENS, 77]);
  });

  it('aborts a pending request and a backoff wait', async () => {
    const s = await serve({ [MODEL]: [{ text: 'slow', delayMs: 5000 }, { status: 503 }, { text: 'ok' }] });
    const m = model(s.baseUrl, { requestTimeoutMs: 10_000, retryBaseMs: 10_000, retryMaxWaitMs: 10_000 });
    const inFlight = new AbortController();
    const started = Date.now();
    setTimeout(() => inFlight.abort(new Error('stop now')), 50);
    await expect(m.complete(USER, TOOLS, inFlight.signal)).rejects.toThrow('stop now');

    const inBackoff = new AbortController();
    setTimeout(() => inBackoff.abort(new Error('stop waiting')), 200);
    await expect(m.complete(USER, TOOLS, inBackoff.signal)).rejects.toThrow('stop waiting');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('never shows the API key, even when the server echoes it', async () => {
    const s = await serve({ [MODEL]: [{ status: 401, error: `Incorrect API key provided: ${SECRET}` }] });
    const m = model(s.baseUrl);
    const err = await m.complete(USER, TOOLS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelRequestError);
    expect(inspect(err, { depth: 10 })).not.toContain(SECRET);
    expect(JSON.stringify(err)).not.toContain(SECRET);
    expect(inspect(m, { depth: 10 })).not.toContain(SECRET);
    expect((err as Error).message).toContain('[redacted]');
  });

  it('turns a garbage 200 body into a malformed reply', async () => {
    const s = await serve({
      [MODEL]: [{ body: 'not json at all', contentType: 'text/plain' }, { body: { choices: [] } }],
    });
    const m = model(s.baseUrl);
    expect((await m.complete(USER, TOOLS)).malformed).toMatch(/^reply body is not JSON/);
    expect((await m.complete(USER, TOOLS)).malformed).toMatch(/^reply has no choices/);
  });

  it('keeps tool-call ids unique across turns when the server repeats them', async () => {
    const odd = {
      toolCalls: [
        { id: 'call_0', type: 'function', function: { name: 'read_file', arguments: { path: 'a' } } },
      ],
    };
    const s = await serve({
      [MODEL]: [
        odd,
        odd,
        { text: '<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>' },
      ],
    });
    const m = model(s.baseUrl);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(...(await m.complete(USER, TOOLS)).toolCalls.map((c) => c.id));
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it('rejects a bad timeout or retry count when configured', () => {
    expect(() => model('http://127.0.0.1:1/v1', { requestTimeoutMs: 0 })).toThrow(/timeout/);
    // setTimeout fires at once past 2^31 - 1 ms: such a timeout would be none at all.
    expect(() => model('http://127.0.0.1:1/v1', { requestTimeoutMs: 2 ** 31 })).toThrow(/timeout/);
    expect(() => model('http://127.0.0.1:1/v1', { maxRetries: -1 })).toThrow(/retries/);
  });
});
