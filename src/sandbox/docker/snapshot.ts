/**
 * Workspace snapshots, host side. The walk is sandbox/report/workspace_snapshot.py, run as root
 * from the read-only image (isolated Python: nothing the agent wrote takes part in it); it says
 * why no symlink is ever followed, and when it may skip reading a file it read before. It runs
 * at the end of every agent command inside the command's own exec (the wrapper's report prints
 * it), or here in an exec of its own. It prints a listing: everything, or only what changed since
 * the listing the host holds (WorkspaceView says which it holds); this module reads it.
 */
import { REPORT_DIR, tool } from '../tools.js';
import type { SnapshotEntry } from '../types.js';
import type { RawRunner } from './raw-runner.js';

/** How long a snapshot may walk inside an agent command's exec before it gives up (a look of its own follows). */
export const FOLDED_BUDGET_MS = 10_000;
/** An exec of its own: the walk's budget, and the host's deadline a little later. */
const OWN_BUDGET_MS = 110_000;
const OWN_DEADLINE_MS = 120_000;
/** The walk's cap on a listing (workspace_snapshot.py, MAX_OUTPUT), and room for its first line. */
export const MAX_LISTING_BYTES = (64 << 20) + 1024;

const BOOT = `import sys; sys.dont_write_bytecode = True
sys.path.insert(0, "${REPORT_DIR}")
import workspace_snapshot; workspace_snapshot.main(sys.argv[1])`;

export type SnapshotListing =
  | { kind: 'full'; id: string | null; ms: number; entries: Map<string, SnapshotEntry> }
  /** Changes since the listing `base`; null: the path was removed. */
  | { kind: 'delta'; base: string; id: string | null; ms: number; changes: Map<string, SnapshotEntry | null> }
  | { kind: 'failed'; reason: string };

export interface SnapshotRequest {
  /** Id of the listing the host holds (a delta against it comes back), or null for everything. */
  base: string | null;
  /** Id the walk saves this listing under. */
  id: string;
  /** Read every file again, whatever the walk's cache says. */
  rehash: boolean;
  budgetMs: number;
  /** Workspace-relative names of read-only mounts, left out. */
  skip: readonly string[];
}

/** The walk's SPEC argument (workspace_snapshot.py); mount names are plain (container.ts checks). */
export function snapshotSpec(req: SnapshotRequest): string {
  return [req.base ?? '-', req.id, req.rehash ? '1' : '0', String(req.budgetMs / 1000), ...req.skip].join(
    ':',
  );
}

/** A snapshot in an exec of its own. */
export async function runSnapshot(
  run: RawRunner,
  req: Omit<SnapshotRequest, 'budgetMs'>,
): Promise<SnapshotListing> {
  const r = await run({
    argv: [tool('python3'), '-I', '-S', '-c', BOOT, snapshotSpec({ ...req, budgetMs: OWN_BUDGET_MS })],
    user: 'root',
    maxStdoutBytes: MAX_LISTING_BYTES,
    maxStderrBytes: 16 * 1024,
    deadlineMs: OWN_DEADLINE_MS,
  });
  if (r.exitCode !== 0) {
    const said = r.stderr.toString('utf8').trim().split('\n').slice(-1)[0];
    return { kind: 'failed', reason: said || `exit ${r.exitCode ?? 'unknown'}` };
  }
  if (r.stdoutDropped > 0) return { kind: 'failed', reason: 'listing too large' };
  return parseListing(r.stdout);
}

const FIRST_LINE = /^(?:full ([0-9a-f]+|-)|delta ([0-9a-f]+) ([0-9a-f]+|-)) (\d+)$/;

export function parseListing(bytes: Buffer): SnapshotListing {
  const nl = bytes.indexOf(0x0a);
  const first = bytes.subarray(0, nl < 0 ? bytes.length : nl).toString('utf8');
  if (first.startsWith('failed ')) return { kind: 'failed', reason: first.slice('failed '.length) };
  const m = nl < 0 ? null : FIRST_LINE.exec(first);
  const records = m === null ? null : readRecords(bytes.subarray(nl + 1));
  if (m === null || records === null)
    return { kind: 'failed', reason: `unreadable listing: ${JSON.stringify(first.slice(0, 80))}` };
  const [, fullId, base, deltaId, ms] = m;
  const id = (base === undefined ? fullId : deltaId) ?? '-';
  const common = { id: id === '-' ? null : id, ms: Number(ms) };
  if (base === undefined) {
    const entries = new Map<string, SnapshotEntry>();
    for (const [path, entry] of records) {
      if (entry === null) return { kind: 'failed', reason: 'a removal in a full listing' };
      entries.set(path, entry);
    }
    return { kind: 'full', ...common, entries };
  }
  return { kind: 'delta', base, ...common, changes: new Map(records) };
}

/** NUL-ended fields, kind first: f PATH SHA SIZE MODE | l PATH TARGET | d PATH MODE | x PATH WHAT MODE | - PATH. */
function readRecords(body: Buffer): [string, SnapshotEntry | null][] | null {
  const out: [string, SnapshotEntry | null][] = [];
  let at = 0;
  const field = (): Buffer | null => {
    const end = body.indexOf(0, at);
    if (end < 0) return null;
    const f = body.subarray(at, end);
    at = end + 1;
    return f;
  };
  const num = (f: Buffer | null): number | null => {
    const n = f === null ? Number.NaN : Number(f.toString('latin1'));
    return Number.isInteger(n) && n >= 0 ? n : null;
  };
  while (at < body.length) {
    const kind = field()?.toString('latin1');
    const path = field();
    if (path === null) return null;
    const name = exactName(path);
    if (kind === '-') {
      out.push([name, null]);
    } else if (kind === 'f') {
      const sha = field()?.toString('latin1');
      const [size, mode] = [num(field()), num(field())];
      if (sha === undefined || size === null || mode === null) return null;
      out.push([name, { kind: 'file', sha256: sha, size, mode }]);
    } else if (kind === 'l') {
      const target = field();
      if (target === null) return null;
      out.push([name, { kind: 'symlink', target: exactName(target) }]);
    } else if (kind === 'd') {
      const mode = num(field());
      if (mode === null) return null;
      out.push([name, { kind: 'dir', mode }]);
    } else if (kind === 'x') {
      // A FIFO, socket or device (or a file swapped for one mid-read) has no content to hash;
      // recorded as an empty file with a marker hash so any appearance or change still shows.
      const what = field()?.toString('latin1');
      const mode = num(field());
      if (what === undefined || mode === null) return null;
      out.push([name, { kind: 'file', sha256: `special:${what}`, size: 0, mode }]);
    } else return null;
  }
  return out;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A name's bytes as a string, one to one: valid UTF-8 as it is, any other byte b as the lone
 * surrogate U+DC00+b (Python's surrogateescape), so that two odd names never become one path.
 */
export function exactName(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let out = '';
    let i = 0;
    while (i < bytes.length) {
      const b = bytes[i] as number;
      const n =
        b < 0x80
          ? 1
          : b >= 0xc2 && b <= 0xdf
            ? 2
            : b >= 0xe0 && b <= 0xef
              ? 3
              : b >= 0xf0 && b <= 0xf4
                ? 4
                : 0;
      if (n > 0 && i + n <= bytes.length) {
        try {
          out += strictUtf8.decode(bytes.subarray(i, i + n));
          i += n;
          continue;
        } catch {
          // not a whole character: the lead byte is escaped on its own
        }
      }
      out += String.fromCharCode(0xdc00 + b);
      i++;
    }
    return out;
  }
}

export function sameEntry(a: SnapshotEntry | undefined, b: SnapshotEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === 'file' && b.kind === 'file') return a.sha256 === b.sha256 && a.mode === b.mode;
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  if (a.kind === 'dir' && b.kind === 'dir') return a.mode === b.mode;
  return false;
}
