/**
 * What a trial left behind, as exported by the runner under
 * `<results>/artifacts/<task_id>/<model slug>/trial-<index>/<workspace-relative path>`. The trial record
 * lists them (`artifacts: [{path, size, sha256}]`); older records without the list fall back to what is
 * on disk, and a trial with neither simply has no artifacts.
 */
import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { RunCondition } from '../results/condition.js';
import { artifactsDir } from '../results/layout.js';
import type { TrialRecord } from '../results/trial.js';
import { confinedFile } from './security.js';

type ArtifactKind = 'html' | 'image' | 'text' | 'binary';

export interface ArtifactView {
  path: string;
  size: number | null;
  sha256: string | null;
  kind: ArtifactKind;
  /** URL on this server (served with a sandboxing Content-Security-Policy). */
  url: string;
  /** Listed by the record but not on disk. */
  missing: boolean;
}

const MAX_LISTED = 500;

export async function listArtifacts(
  resultsDir: string,
  taskId: string,
  model: string,
  trial: TrialRecord,
  condition: RunCondition,
): Promise<ArtifactView[]> {
  // A noisy or adversarial run's artifacts are in a folder of their own, never the clean run's.
  const rel = artifactsDir(taskId, model, trial.index, condition);
  const root = join(resultsDir, rel);
  const listed = recordedArtifacts(trial);
  const entries = listed ?? (await walk(root)).map((path) => ({ path, size: null, sha256: null }));
  const views = await Promise.all(
    entries.slice(0, MAX_LISTED).map(async (a) => {
      // A record's path is data from a file: sized only when it is confined to the trial's folder.
      const real = await confinedFile(root, a.path);
      const info = real === null ? null : await stat(real).catch(() => null);
      return {
        path: a.path,
        size: a.size ?? info?.size ?? null,
        sha256: a.sha256,
        kind: artifactKind(a.path),
        url: `/${[...rel.split('/'), ...a.path.split('/')].map(encodeURIComponent).join('/')}`,
        missing: info === null || !info.isFile(),
      };
    }),
  );
  return views.sort((a, b) => a.path.localeCompare(b.path));
}

/** The record's own list, when the runner wrote one (validated: it is read from a file). */
function recordedArtifacts(
  trial: TrialRecord,
): { path: string; size: number | null; sha256: string | null }[] | null {
  const raw: unknown = (trial as unknown as Record<string, unknown>).artifacts;
  if (!Array.isArray(raw)) return null;
  return raw.flatMap((a: unknown) => {
    if (typeof a !== 'object' || a === null) return [];
    const o = a as Record<string, unknown>;
    if (typeof o.path !== 'string' || o.path === '') return [];
    return [
      {
        path: o.path,
        size: typeof o.size === 'number' ? o.size : null,
        sha256: typeof o.sha256 === 'string' ? o.sha256 : null,
      },
    ];
  });
}

/** Files under dir as relative posix paths (symlinks are not followed). */
async function walk(dir: string, prefix = ''): Promise<string[]> {
  const items = await readdir(join(dir, prefix), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const item of items) {
    if (out.length >= MAX_LISTED) break;
    const rel = prefix === '' ? item.name : `${prefix}/${item.name}`;
    if (item.isDirectory()) out.push(...(await walk(dir, rel)));
    else if (item.isFile()) out.push(rel);
  }
  return out;
}

const TYPES: Record<string, { type: string; kind: ArtifactKind }> = {
  '.html': { type: 'text/html; charset=utf-8', kind: 'html' },
  '.htm': { type: 'text/html; charset=utf-8', kind: 'html' },
  '.png': { type: 'image/png', kind: 'image' },
  '.jpg': { type: 'image/jpeg', kind: 'image' },
  '.jpeg': { type: 'image/jpeg', kind: 'image' },
  '.gif': { type: 'image/gif', kind: 'image' },
  '.webp': { type: 'image/webp', kind: 'image' },
  '.svg': { type: 'image/svg+xml', kind: 'image' },
  '.css': { type: 'text/css; charset=utf-8', kind: 'text' },
  '.js': { type: 'text/javascript; charset=utf-8', kind: 'text' },
  '.mjs': { type: 'text/javascript; charset=utf-8', kind: 'text' },
  '.json': { type: 'application/json; charset=utf-8', kind: 'text' },
};

const TEXT_EXTENSIONS = new Set([
  '.txt',
  '.md',
  '.py',
  '.ts',
  '.tsx',
  '.jsx',
  '.csv',
  '.tsv',
  '.sh',
  '.yaml',
  '.yml',
  '.toml',
  '.ini',
  '.cfg',
  '.log',
  '.xml',
  '.sql',
  '.rs',
  '.go',
  '.c',
  '.h',
  '.java',
  '.rb',
  '.diff',
  '.patch',
]);

function artifactKind(path: string): ArtifactKind {
  const ext = extname(path).toLowerCase();
  return TYPES[ext]?.kind ?? (TEXT_EXTENSIONS.has(ext) || ext === '' ? 'text' : 'binary');
}

export function artifactContentType(path: string): string {
  const ext = extname(path).toLowerCase();
  const known = TYPES[ext];
  if (known !== undefined) return known.type;
  return artifactKind(path) === 'text' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
}
