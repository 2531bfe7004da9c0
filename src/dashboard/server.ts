/**
 * The local dashboard on node:http: read-only views of the results folder, plus a run panel. Which
 * handler answers a request, and what it must carry to be answered, is routes.ts's.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LOCAL_SERVERS, type ProbeTarget } from '../models/probe.js';
import { packageRoot } from '../util/package-root.js';
import type { ReadContext } from './api-read.js';
import type { RunContext, RunStream } from './api-run.js';
import { createDashboardState } from './dashboard-state.js';
import { loadStatic } from './files.js';
import { sendError } from './http-util.js';
import { createResultIndex } from './result-index.js';
import { type RouteContext, route } from './routes.js';
import { createRunManager } from './run-manager.js';
import { newSessionToken } from './security.js';
import { loadTaskList, type TaskList, taskDomains } from './task-list.js';

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
  /** Where to look for a model server without baseUrl (default: the run's probe list; tests point it elsewhere). */
  localServers?: readonly ProbeTarget[];
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
  const tasks = (): Promise<TaskList> => {
    taskList ??= loadTaskList(o.taskRegistry);
    return taskList;
  };
  const read: ReadContext = {
    resultsDir: o.resultsDir,
    index: createResultIndex(o.resultsDir),
    state: createDashboardState(o.resultsDir),
    taskDomains: async () => taskDomains(await tasks()),
  };
  const run: RunContext = { resultsDir: o.resultsDir, runs, clients, tasks };
  // Warm the index so the first page load does not wait for the whole folder to be read.
  void read.index.summaries();

  let port = o.port;
  const context: RouteContext = {
    host: o.host,
    port: () => port,
    token,
    baseUrl: o.baseUrl,
    localServers: o.localServers ?? LOCAL_SERVERS,
    files,
    read,
    run,
  };
  const server = createServer((req, res) => {
    route(req, res, context).catch((err: unknown) => {
      o.onError?.(err);
      if (!res.headersSent) sendError(res, 500, 'internal error');
      else res.end();
    });
  });

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
