/**
 * The local dashboard on node:http: read-only views of the results folder, plus a run panel. Every
 * request must name this server in its Host header; state-changing requests also need the page's
 * session token and a matching Origin, so no other web page can start or cancel a run, or hide or
 * delete one.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { postDelete, postHide } from './api-manage.js';
import {
  getAxes,
  getCompare,
  getIndex,
  getRadar,
  getResult,
  getTrial,
  type ReadContext,
  radarModels,
} from './api-read.js';
import { getEvents, postCancel, postRun, type RunContext, type RunStream } from './api-run.js';
import { createDashboardState } from './dashboard-state.js';
import { loadStatic, sendArtifact, sendAsset, sendIndex } from './files.js';
import { sendError, sendJson } from './http-util.js';
import { fetchModelList } from './model-list.js';
import { createResultIndex } from './result-index.js';
import { createRunManager } from './run-manager.js';
import { hostAllowed, newSessionToken, originMatches, TOKEN_HEADER, tokenMatches } from './security.js';
import { loadTaskList, type TaskList } from './task-list.js';

export interface DashboardOptions {
  /** Absolute path of the results folder. */
  resultsDir: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Normalised model server URL, or null (the run's CLI then probes local servers itself). */
  baseUrl: string | null;
  /** The agent-bench executable the run panel spawns; defaults to bin/agent-bench. */
  cliEntry?: string;
  graceMs?: number;
  /** Where the task list comes from (tests point it elsewhere). */
  taskRegistry?: string;
  /** Where unexpected errors are reported. */
  onError?: (err: unknown) => void;
}

export interface Dashboard {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export async function startDashboard(o: DashboardOptions): Promise<Dashboard> {
  const token = newSessionToken();
  const files = await loadStatic(join(packageRoot(), 'src', 'dashboard', 'static'), token);
  const clients = new Set<RunStream>();
  const runs = createRunManager({
    resultsDir: o.resultsDir,
    baseUrl: o.baseUrl,
    cliEntry: o.cliEntry ?? join(packageRoot(), 'bin', 'agent-bench'),
    ...(o.graceMs === undefined ? {} : { graceMs: o.graceMs }),
    onChange: (state) => {
      for (const c of clients) c.run(state);
    },
    onLog: (line) => {
      for (const c of clients) c.log(line);
    },
  });
  let taskList: Promise<TaskList> | null = null;
  const read: ReadContext = {
    resultsDir: o.resultsDir,
    index: createResultIndex(o.resultsDir),
    state: createDashboardState(o.resultsDir),
  };
  const run: RunContext = {
    resultsDir: o.resultsDir,
    runs,
    clients,
    tasks: () => {
      taskList ??= loadTaskList(o.taskRegistry);
      return taskList;
    },
  };
  // Warm the index so the first page load does not wait for the whole folder to be read.
  void read.index.summaries();

  let port = o.port;
  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      o.onError?.(err);
      if (!res.headersSent) sendError(res, 500, 'internal error');
      else res.end();
    });
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req.headers.host, port, o.host))
      return sendError(res, 403, 'forbidden: unexpected Host header');
    const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
    const path = url.pathname;
    const q = (name: string): string | null => url.searchParams.get(name);
    if (req.method === 'POST') {
      if (
        !originMatches(req.headers.origin, req.headers.host) ||
        !tokenMatches(token, req.headers[TOKEN_HEADER])
      ) {
        return sendError(
          res,
          403,
          "forbidden: this request needs the dashboard page's session token and origin",
        );
      }
      if (path === '/api/run') return postRun(req, res, run);
      if (path === '/api/run/cancel') return postCancel(res, run);
      if (path === '/api/hide') return postHide(req, res, read);
      if (path === '/api/delete') return postDelete(req, res, read);
      return sendError(res, 404, 'not found');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'method not allowed');
    if (path === '/' || path === '/index.html') return sendIndex(res, files);
    if (path.startsWith('/static/')) return sendAsset(res, files, path.slice('/static/'.length));
    if (path.startsWith('/artifacts/')) return artifact(res, path, q('download') === '1');
    if (path === '/api/index') return getIndex(res, read);
    if (path === '/api/result') return getResult(res, read, q('file') ?? '');
    if (path === '/api/trial') return getTrial(res, read, q('file') ?? '', Number(q('index') ?? 'NaN'));
    if (path === '/api/compare') return getCompare(res, read, q('task') ?? '');
    if (path === '/api/axes') return getAxes(res, read);
    if (path === '/api/radar' || path === '/api/radar.svg') {
      const models = radarModels(q('models'));
      if (models === null) return sendError(res, 400, 'models: 1 to 4 comma-separated names');
      return getRadar(res, read, models, path.endsWith('.svg'));
    }
    if (path === '/api/tasks') return sendJson(res, 200, await run.tasks());
    if (path === '/api/models') return sendJson(res, 200, await fetchModelList(o.baseUrl));
    if (path === '/api/run') return sendJson(res, 200, { run: runs.state() });
    if (path === '/api/events') return getEvents(req, res, run, q('since') === 'run');
    return sendError(res, 404, 'not found');
  }

  function artifact(res: ServerResponse, path: string, download: boolean): Promise<void> | void {
    let segments: string[];
    try {
      segments = path.slice('/artifacts/'.length).split('/').map(decodeURIComponent);
    } catch {
      return sendError(res, 404, 'not found');
    }
    // An encoded slash inside a segment would change the path's shape after decoding.
    if (segments.some((s) => s === '' || s.includes('/'))) return sendError(res, 404, 'not found');
    return sendArtifact(res, join(o.resultsDir, 'artifacts'), segments.join('/'), download);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    url: `http://${shownHost}:${port}/`,
    port,
    token,
    async close() {
      for (const c of [...clients]) c.close();
      await runs.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
