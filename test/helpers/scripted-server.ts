/**
 * A scripted OpenAI-compatible server for tests: the real openai client, over real HTTP, against
 * replies a test chooses. Bound to 127.0.0.1 on an ephemeral port.
 *
 *   const server = await startScriptedServer({
 *     scripts: {
 *       'qwen-test': [
 *         { status: 503, retryAfter: 1 },                                 // one retryable failure
 *         { calls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] }, // native tool call
 *         { text: '<tool_call>{"name": "read_file", "arguments": {"path": "b"}}</tool_call>' },
 *         { text: 'All done.' },                                           // final answer
 *       ],
 *       // Or decide each reply from the request: `index` counts this model's requests from 0.
 *       'dynamic': (body, index) => (lastToolResult(body)?.includes('PASS') ? { text: 'ok' } : { calls: [...] }),
 *     },
 *   });
 *   // point the harness at server.baseUrl (ends with /v1), then inspect server.requests
 *   await server.close();
 *
 * Serves GET /v1/models (the script names plus `extraModels`) and POST /v1/chat/completions.
 * A model whose list has run out answers `whenExhausted` (default: the final answer "done"); a
 * model with no script gets a 404. Optional GET /props (llama-server) and /api/version (Ollama).
 * Reply shapes (native calls, text, raw tool_calls or message, HTTP error with Retry-After, a
 * dropped connection, a raw body, each with an optional delay) are the `ScriptedReply` union in
 * ./scripted-replies.ts. Also: `turnsToReplies(task.referenceSolution)`, `lastToolResult(body)`,
 * and `unusedPortUrl()` for a server that is down.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { type ChatRequestBody, completionBody, type ScriptedReply, wireMessage } from './scripted-replies.js';

export * from './scripted-replies.js';

type ScriptFn = (body: ChatRequestBody, index: number) => ScriptedReply | Promise<ScriptedReply>;
export type Script = readonly ScriptedReply[] | ScriptFn;

export interface ScriptedServerOptions {
  /** Model name -> its replies in order, or a function choosing each reply. */
  scripts: Record<string, Script>;
  /** Further names listed by /v1/models without a script. */
  extraModels?: string[];
  /** After a list runs out. Default `{ text: 'done' }`. */
  whenExhausted?: ScriptedReply;
  /** Served as JSON at GET /props when set (what llama-server says about itself). */
  props?: unknown;
  /** Served as `{version}` at GET /api/version when set (Ollama). */
  ollamaVersion?: string;
}

export interface RecordedRequest {
  model: string;
  /** This model's request count before this one (the script cursor). */
  index: number;
  body: ChatRequestBody;
  /** The Authorization header as received, to check what key was (not) sent. */
  authorization: string | null;
}

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:43123/v1 */
  baseUrl: string;
  /** Every chat request, in arrival order. */
  requests: RecordedRequest[];
  /** Stops the server, cutting open connections and pending delays. Safe to call twice. */
  close(): Promise<void>;
}

export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const cursors = new Map<string, number>();
  const sockets = new Set<Socket>();
  const closing = new AbortController();
  let callIds = 0;

  const chat = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    let body: ChatRequestBody;
    try {
      body = JSON.parse(raw) as ChatRequestBody;
    } catch {
      sendJson(res, 400, { error: { message: 'request body is not JSON' } });
      return;
    }
    const script = options.scripts[body.model];
    if (script === undefined) {
      sendJson(res, 404, { error: { message: `model '${body.model}' not found` } });
      return;
    }
    const index = cursors.get(body.model) ?? 0;
    cursors.set(body.model, index + 1);
    requests.push({ model: body.model, index, body, authorization: req.headers.authorization ?? null });
    const reply =
      typeof script === 'function'
        ? await script(body, index)
        : (script[index] ?? options.whenExhausted ?? { text: 'done' });
    await delay(reply.delayMs ?? 0, closing.signal);
    if (closing.signal.aborted) return;
    if ('drop' in reply) return dropConnection(res, reply.drop);
    if ('status' in reply) {
      const headers = reply.retryAfter === undefined ? {} : { 'retry-after': String(reply.retryAfter) };
      sendJson(
        res,
        reply.status,
        reply.errorBody ?? { error: { message: reply.error ?? `scripted HTTP ${reply.status}` } },
        headers,
      );
      return;
    }
    if ('body' in reply) {
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(200, { 'content-type': reply.contentType ?? 'application/json' }).end(text);
      return;
    }
    const message = wireMessage(reply, () => `call_srv_${++callIds}`);
    sendJson(res, 200, completionBody(body.model, reply, message, raw.length));
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const handle = (): Promise<void> | void => {
      if (req.method === 'POST' && path === '/v1/chat/completions') return chat(req, res);
      if (req.method === 'GET' && path === '/v1/models') {
        const names = [...Object.keys(options.scripts), ...(options.extraModels ?? [])];
        return sendJson(res, 200, {
          object: 'list',
          data: names.map((id) => ({ id, object: 'model', owned_by: 'scripted' })),
        });
      }
      if (req.method === 'GET' && path === '/props' && options.props !== undefined)
        return sendJson(res, 200, options.props);
      if (req.method === 'GET' && path === '/api/version' && options.ollamaVersion !== undefined) {
        return sendJson(res, 200, { version: options.ollamaVersion });
      }
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    };
    Promise.resolve()
      .then(handle)
      .catch((err: unknown) => {
        // A script that throws is a test bug: answer 500 so the test sees it instead of hanging.
        if (!res.headersSent) sendJson(res, 500, { error: { message: `script threw: ${String(err)}` } });
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let closed: Promise<void> | null = null;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close() {
      closed ??= new Promise<void>((resolve) => {
        closing.abort();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}

/** A base URL on a loopback port that nothing listens on (connections are refused), for "server down" tests. */
export async function unusedPortUrl(): Promise<string> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function dropConnection(res: ServerResponse, when: 'before-headers' | 'mid-body'): void {
  if (when === 'before-headers') {
    res.socket?.destroy();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  res.write('{"choices": [{"message": {"content": "cut o', () => res.socket?.destroy());
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
