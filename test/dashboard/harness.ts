/** Shared setup for the dashboard tests: a private copy of the fixture results and a server on it. */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Dashboard, startDashboard } from '../../src/dashboard/server.js';
import type { ProbeTarget } from '../../src/models/probe.js';
import { FIXTURE_DIR } from '../fixtures/results-set.js';

const FAKE_CLI = join(import.meta.dirname, 'fake-cli.mjs');
const FAKE_TASKS = pathToFileURL(join(import.meta.dirname, 'fake-tasks.ts')).href;

export function copyFixtures(): { dir: string; remove: () => void } {
  const base = mkdtempSync(join(tmpdir(), 'ab-dash-'));
  const dir = join(base, 'results');
  cpSync(FIXTURE_DIR, dir, { recursive: true });
  return { dir, remove: () => rmSync(base, { recursive: true, force: true }) };
}

export interface TestServerOptions {
  resultsDir: string;
  baseUrl?: string | null;
  cliEntry?: string;
  graceMs?: number;
  /** Probed without baseUrl; default none, so no test depends on what listens on this machine's usual ports. */
  localServers?: readonly ProbeTarget[];
}

export function startTestDashboard(o: TestServerOptions): Promise<Dashboard> {
  return startDashboard({
    resultsDir: o.resultsDir,
    host: '127.0.0.1',
    port: 0,
    baseUrl: o.baseUrl ?? null,
    cliEntry: o.cliEntry ?? FAKE_CLI,
    graceMs: o.graceMs ?? 1500,
    taskRegistry: FAKE_TASKS,
    localServers: o.localServers ?? [],
    onError: (err) => {
      throw err;
    },
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** An HTTP request with full control of Host and Origin (fetch would not let a test forge Host). */
export function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** What the dashboard page itself sends for a state-changing request. */
export function pageHeaders(d: Dashboard): Record<string, string> {
  return {
    origin: `http://127.0.0.1:${d.port}`,
    'x-agent-bench-token': d.token,
    'content-type': 'application/json',
  };
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads a server-sent event stream into a list, with a wait for the event a test expects. */
export function openEventStream(port: number, path: string) {
  const events: SseEvent[] = [];
  const controller = new AbortController();
  const waiters = new Set<() => void>();
  const done = (async () => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: controller.signal });
    const reader = res.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event !== undefined && data !== undefined)
          events.push({ event, data: JSON.parse(data) as unknown });
        for (const wake of waiters) wake();
        end = buffer.indexOf('\n\n');
      }
    }
  })().catch(() => {});
  return {
    events,
    async waitFor(test: (e: SseEvent[]) => boolean, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!test(events)) {
        if (Date.now() > deadline)
          throw new Error(`timed out; events so far: ${JSON.stringify(events.slice(-5))}`);
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 100);
        });
      }
    },
    async close(): Promise<void> {
      controller.abort();
      await done;
    },
  };
}
