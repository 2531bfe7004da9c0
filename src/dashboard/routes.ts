/**
 * Which handler answers a dashboard request. Every request must name this server in its Host
 * header; state-changing ones (POST) also need the page's session token and a matching Origin, so no
 * other web page can start or cancel a run, or hide or delete one.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ProbeTarget } from '../models/probe.js';
import { getLadderSvg, getLadders } from './api-ladder.js';
import { postDelete, postHide } from './api-manage.js';
import {
  getAxes,
  getCompare,
  getIndex,
  getParetoSvg,
  getRadar,
  getResult,
  getTrial,
  type ReadContext,
  radarModels,
} from './api-read.js';
import { getEvents, postCancel, postRun, type RunContext } from './api-run.js';
import { type StaticFiles, sendArtifact, sendAsset, sendIndex } from './files.js';
import { sendError, sendJson } from './http-util.js';
import { fetchModelList } from './model-list.js';
import { hostAllowed, originMatches, TOKEN_HEADER, tokenMatches } from './security.js';

export interface RouteContext {
  host: string;
  /** The port listened on (known once listening). */
  port: () => number;
  token: string;
  baseUrl: string | null;
  /** Probed for a model server when baseUrl is null, as a run probes. */
  localServers: readonly ProbeTarget[];
  files: StaticFiles;
  read: ReadContext;
  run: RunContext;
}

export async function route(req: IncomingMessage, res: ServerResponse, c: RouteContext): Promise<void> {
  if (!hostAllowed(req.headers.host, c.port(), c.host))
    return sendError(res, 403, 'forbidden: unexpected Host header');
  const url = new URL(req.url ?? '/', 'http://dashboard.invalid');
  if (req.method === 'POST') return routePost(req, res, url.pathname, c);
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 405, 'method not allowed');
  return routeGet(req, res, url, c);
}

function routePost(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  c: RouteContext,
): Promise<void> | void {
  if (
    !originMatches(req.headers.origin, req.headers.host) ||
    !tokenMatches(c.token, req.headers[TOKEN_HEADER])
  ) {
    return sendError(res, 403, "forbidden: this request needs the dashboard page's session token and origin");
  }
  if (path === '/api/run') return postRun(req, res, c.run);
  if (path === '/api/run/cancel') return postCancel(res, c.run);
  if (path === '/api/hide') return postHide(req, res, c.read);
  if (path === '/api/delete') return postDelete(req, res, c.read);
  return sendError(res, 404, 'not found');
}

async function routeGet(req: IncomingMessage, res: ServerResponse, url: URL, c: RouteContext): Promise<void> {
  const path = url.pathname;
  const q = (name: string): string | null => url.searchParams.get(name);
  const { read, run } = c;
  if (path === '/' || path === '/index.html') return sendIndex(res, c.files);
  if (path.startsWith('/static/')) return sendAsset(res, c.files, path.slice('/static/'.length));
  if (path.startsWith('/artifacts/')) return artifact(res, path, q('download') === '1', read.resultsDir);
  if (path === '/api/index') return getIndex(res, read);
  if (path === '/api/result') return getResult(res, read, q('file') ?? '');
  if (path === '/api/trial') return getTrial(res, read, q('file') ?? '', Number(q('index') ?? 'NaN'));
  if (path === '/api/compare') return getCompare(res, read, q('task') ?? '', q('condition') ?? 'clean');
  if (path === '/api/axes') return getAxes(res, read);
  if (path === '/api/pareto.svg') return getParetoSvg(res, read, q('cost'));
  if (path === '/api/ladders') return getLadders(res, read);
  if (path === '/api/ladder.svg') return getLadderSvg(res, read, q('run') ?? '');
  if (path === '/api/radar' || path === '/api/radar.svg') {
    const models = radarModels(q('models'));
    if (models === null) return sendError(res, 400, 'models: 1 to 4 comma-separated names');
    return getRadar(res, read, models, path.endsWith('.svg'));
  }
  if (path === '/api/tasks') return sendJson(res, 200, await run.tasks());
  if (path === '/api/models')
    return sendJson(res, 200, await fetchModelList(c.baseUrl, process.env, c.localServers));
  if (path === '/api/run') return sendJson(res, 200, { run: run.runs.state() });
  if (path === '/api/events') return getEvents(req, res, run, q('since') === 'run');
  return sendError(res, 404, 'not found');
}

function artifact(
  res: ServerResponse,
  path: string,
  download: boolean,
  resultsDir: string,
): Promise<void> | void {
  let segments: string[];
  try {
    segments = path.slice('/artifacts/'.length).split('/').map(decodeURIComponent);
  } catch {
    return sendError(res, 404, 'not found');
  }
  // An encoded slash inside a segment would change the path's shape after decoding.
  if (segments.some((s) => s === '' || s.includes('/'))) return sendError(res, 404, 'not found');
  return sendArtifact(res, join(resultsDir, 'artifacts'), segments.join('/'), download);
}
