/**
 * The streamable-HTTP transport's fetch, carried through the sandbox: the server listens inside the
 * container's network namespace, which the host cannot reach (containers run `--network none`, and
 * no port is ever published). Each request is one exec of a small Node relay inside the container
 * that sends it to the URL from there (service names resolve there too) and prints the whole
 * response back. A whole response, not a stream: a POST's event stream ends once its requests are
 * answered, which is all the client needs; the optional stream a GET would open for
 * server-initiated messages is declined with 405, as the protocol lets a server do.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import type { Sandbox } from '../../sandbox/types.js';
import { InfraError } from '../../util/errors.js';

/** CommonJS for `node -e`: request head (a JSON line) and body on stdin; status and headers (a JSON line) and body on stdout. */
const RELAY = `const http = require('http');
const input = [];
process.stdin.on('data', (c) => input.push(c));
process.stdin.on('end', () => {
  const all = Buffer.concat(input);
  const nl = all.indexOf(10);
  const head = JSON.parse(all.subarray(0, nl).toString('utf8'));
  const req = http.request(head.url, { method: head.method, headers: head.headers }, (res) => {
    const body = [];
    res.on('data', (c) => body.push(c));
    res.on('end', () => {
      process.stdout.write(JSON.stringify({ status: res.statusCode, headers: res.headers }) + '\\n');
      process.stdout.write(Buffer.concat(body));
    });
  });
  req.on('error', (e) => { process.stderr.write(e.message); process.exit(3); });
  req.end(all.subarray(nl + 1));
});`;

const Head = z.object({
  status: z.int(),
  headers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
});

/** Whole responses are held in memory: a tool's reply is text for a model, never this large. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export function sandboxFetch(sandbox: Sandbox, timeoutMs: number): FetchLike {
  return async (url, init) => {
    const method = init?.method ?? 'GET';
    if (method === 'GET') return new Response(null, { status: 405 });
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    const body = typeof init?.body === 'string' ? init.body : '';
    const head = JSON.stringify({ url: String(url), method, headers });
    const r = await sandbox.exec(['node', '-e', RELAY], {
      user: 'root',
      cwd: '/',
      timeoutMs,
      stdin: Buffer.from(`${head}\n${body}`, 'utf8'),
      maxOutputBytes: MAX_RESPONSE_BYTES,
    });
    const nl = r.stdout.indexOf('\n');
    const parsed = r.exitCode === 0 && nl >= 0 ? Head.safeParse(safeJson(r.stdout.slice(0, nl))) : null;
    if (parsed?.success !== true) {
      const why = r.timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : r.stderr.trim();
      throw new InfraError(
        `${method} ${String(url)} inside the sandbox failed: ${why || `exit ${r.exitCode}`}`,
      );
    }
    const out = new Headers();
    for (const [k, v] of Object.entries(parsed.data.headers))
      for (const one of Array.isArray(v) ? v : [v]) out.append(k, one);
    const status = parsed.data.status;
    const text = r.stdout.slice(nl + 1);
    return new Response(status === 204 || status === 304 ? null : text, { status, headers: out });
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
