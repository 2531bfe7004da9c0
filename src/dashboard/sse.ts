/** Server-sent events by hand: one open response per client, heartbeat comments, cleanup on close. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BASE_HEADERS } from './http-util.js';

export interface SseClient {
  send(event: string, data: unknown): void;
  /** Called once when the client goes away or the server closes it. */
  onClose(fn: () => void): void;
  close(): void;
}

const HEARTBEAT_MS = 15_000;

export function openSse(req: IncomingMessage, res: ServerResponse, heartbeatMs = HEARTBEAT_MS): SseClient {
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    // Proxies that buffer would hold events back until the buffer fills.
    'X-Accel-Buffering': 'no',
  });
  res.write(': connected\n\n');
  const closers: (() => void)[] = [];
  let closed = false;
  const finish = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const fn of closers) fn();
    res.end();
  };
  // A comment line keeps idle connections (and the proxies between) from timing out.
  const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
  heartbeat.unref();
  req.on('close', finish);
  return {
    send(event, data) {
      if (closed) return;
      // JSON has no raw newlines, so one data line per event is always well-formed.
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    onClose(fn) {
      closers.push(fn);
    },
    close: finish,
  };
}
