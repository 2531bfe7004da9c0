/**
 * File routes: the dashboard's own static files (a fixed list, read at start), and artifacts confined to
 * <results>/artifacts. Model-written files are served under a `sandbox` Content-Security-Policy, so even
 * a direct link opens them in an opaque origin that cannot reach the dashboard's API or cookies.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { paletteCss } from '../report/palette.js';
import { artifactContentType } from './artifacts.js';
import { BASE_HEADERS, sendError } from './http-util.js';
import { confinedFile } from './security.js';

const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Scripts may run (model-built pages often need them to render) but only in an opaque origin: no
 * same-origin, no top navigation, no popups or forms, and no network at all (connect-src 'none').
 */
const ARTIFACT_CSP = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "media-src 'self'",
  "connect-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

const STATIC_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface StaticFiles {
  /** index.html with the session token filled in. */
  index: string;
  assets: Map<string, { type: string; body: Buffer }>;
}

export async function loadStatic(dir: string, token: string): Promise<StaticFiles> {
  const assets = new Map<string, { type: string; body: Buffer }>();
  for (const name of await readdir(dir)) {
    const type = STATIC_TYPES[extname(name)];
    if (type !== undefined && name !== 'index.html')
      assets.set(name, { type, body: await readFile(join(dir, name)) });
  }
  // The series colours come from the reports' palette, so a model has the same colour in both.
  assets.set('palette.css', {
    type: 'text/css; charset=utf-8',
    body: Buffer.from(paletteCss(':root', '--c')),
  });
  const index = (await readFile(join(dir, 'index.html'), 'utf8')).replace('__SESSION_TOKEN__', token);
  return { index, assets };
}

export function sendIndex(res: ServerResponse, files: StaticFiles): void {
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': DASHBOARD_CSP,
    'Cache-Control': 'no-store',
  });
  res.end(files.index);
}

export function sendAsset(res: ServerResponse, files: StaticFiles, name: string): void {
  const asset = files.assets.get(name);
  if (asset === undefined) {
    sendError(res, 404, 'not found');
    return;
  }
  res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': asset.type, 'Cache-Control': 'no-cache' });
  res.end(asset.body);
}

/** `relative` is the URL path below /artifacts/, already percent-decoded per segment. */
export async function sendArtifact(
  res: ServerResponse,
  artifactsRoot: string,
  relative: string,
  download: boolean,
): Promise<void> {
  const path = await confinedFile(artifactsRoot, relative);
  if (path === null) return sendError(res, 404, 'not found');
  const info = await stat(path);
  const name = relative.split('/').pop() ?? 'artifact';
  res.writeHead(200, {
    ...BASE_HEADERS,
    // Artifacts are embedded by the dashboard's iframe, which is a different (opaque) origin.
    'Cross-Origin-Resource-Policy': 'cross-origin',
    'Content-Type': download ? 'application/octet-stream' : artifactContentType(path),
    'Content-Length': info.size,
    'Content-Security-Policy': ARTIFACT_CSP,
    'Cache-Control': 'no-cache',
    ...(download ? { 'Content-Disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"` } : {}),
  });
  createReadStream(path).pipe(res);
}
