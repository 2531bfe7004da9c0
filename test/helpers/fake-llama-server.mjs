#!/usr/bin/env node
/**
 * A stand-in for llama-server in `--server-cmd` tests: `node fake-llama-server.mjs -m MODEL --port PORT`
 * serves GET /health, GET /v1/models and scripted POST /v1/chat/completions on 127.0.0.1, and logs like
 * a server does (to stdout and stderr). Plain JavaScript: it runs as a spawned `node`, not under vitest.
 *
 * Variants:
 *   --load-ms N        /health answers 503 "Loading model" for N ms first (default 0)
 *   --never-healthy    /health answers 503 forever
 *   --no-health        /health is a 404 (a server without it: readiness comes from /v1/models)
 *   --exit-at-once C   log a load failure and exit with code C before listening
 *   --ignore-term      ignore SIGTERM (only SIGKILL stops it)
 *   --die-after N      answer N chat requests, then crash (exit 1) on the next one without answering
 *   --replies FILE     JSON {"<model file name>": [reply, ...]}; reply = {"calls": [{name, arguments}]} or
 *                      {"text": "..."}. The n-th reply answers a conversation with n assistant messages,
 *                      so every trial replays the script. Default: {"text": "I give up."}.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename } from 'node:path';

const args = process.argv.slice(2);
const value = (flag) => {
  const i = args.indexOf(flag);
  return i === -1 ? undefined : args[i + 1];
};
const model = value('-m') ?? value('--model');
const port = Number(value('--port'));
if (model === undefined || !Number.isInteger(port)) {
  console.error('usage: fake-llama-server.mjs -m MODEL --port PORT');
  process.exit(2);
}
const id = basename(model);
console.log(`fake-llama-server: pid ${process.pid} loading model '${model}'`);

const exitCode = value('--exit-at-once');
if (exitCode !== undefined) {
  console.error(`error: failed to load model '${model}'`);
  console.error('main: exiting due to model loading error');
  process.exit(Number(exitCode));
}
if (args.includes('--ignore-term')) process.on('SIGTERM', () => console.log('SIGTERM ignored'));
else {
  process.on('SIGTERM', () => {
    console.log('fake-llama-server: SIGTERM, shutting down');
    process.exit(0);
  });
}

const repliesFile = value('--replies');
const replies = repliesFile === undefined ? [] : (JSON.parse(readFileSync(repliesFile, 'utf8'))[id] ?? []);
const readyAt = Date.now() + Number(value('--load-ms') ?? 0);
let callIds = 0;
const dieAfter = value('--die-after') === undefined ? Number.POSITIVE_INFINITY : Number(value('--die-after'));
let chats = 0;

const send = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

function health(res) {
  if (args.includes('--no-health'))
    return send(res, 404, { error: { code: 404, message: 'File Not Found' } });
  if (args.includes('--never-healthy') || Date.now() < readyAt) {
    return send(res, 503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } });
  }
  send(res, 200, { status: 'ok' });
}

function chat(body, res) {
  if (++chats > dieAfter) {
    console.error('fake-llama-server: crashing mid-request (--die-after)');
    process.exit(1);
  }
  const turn = body.messages.filter((m) => m.role === 'assistant').length;
  const reply = replies[turn] ?? { text: 'I give up.' };
  const message =
    reply.calls === undefined
      ? { role: 'assistant', content: reply.text }
      : {
          role: 'assistant',
          content: reply.text ?? null,
          tool_calls: reply.calls.map((c) => ({
            id: `call_fake_${++callIds}`,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.arguments) },
          })),
        };
  console.log(
    `chat: turn ${turn} -> ${reply.calls === undefined ? 'text' : reply.calls.map((c) => c.name).join(',')}`,
  );
  send(res, 200, {
    id: `chatcmpl-fake-${callIds}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: id,
    choices: [{ index: 0, message, finish_reason: reply.calls === undefined ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  let raw = '';
  req.on('data', (chunk) => {
    raw += chunk;
  });
  req.on('end', () => {
    if (req.method === 'GET' && path === '/health') return health(res);
    if (req.method === 'GET' && path === '/v1/models') {
      if (Date.now() < readyAt) return send(res, 503, { error: { code: 503, message: 'Loading model' } });
      return send(res, 200, { object: 'list', data: [{ id, object: 'model', owned_by: 'llamacpp' }] });
    }
    if (req.method === 'POST' && path === '/v1/chat/completions') return chat(JSON.parse(raw), res);
    send(res, 404, { error: { code: 404, message: 'File Not Found' } });
  });
});
server.listen(port, '127.0.0.1', () => console.log(`main: server is listening on http://127.0.0.1:${port}`));
