/**
 * The --results-dir of a command, checked before anything starts, so a bad one is one clear line
 * (exit 2) instead of a stack trace or a failure after the first trial. Folders are made one level
 * at a time: Node's recursive mkdir never returns under /proc (it retries ENOENT forever).
 */
import { mkdirSync, rmSync, type Stats, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../util/errors.js';

/** The absolute folder results are written to: made when missing, and proven writable by writing. */
export function writableResultsDir(dir: string, flag = '--results-dir'): string {
  const abs = resolve(dir);
  const missing: string[] = [];
  for (let at = abs; ; at = dirname(at)) {
    const st = existing(dir, at, flag);
    if (st !== null) {
      if (!st.isDirectory()) throw notAFolder(dir, at, flag);
      break;
    }
    if (dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (err) {
      if (code(err) !== 'EEXIST') throw new UsageError(`${flag} ${dir}: cannot create ${d} (${code(err)})`);
    }
  }
  // access(W_OK) says yes to root on a read-only mount or under /proc; only a real write can tell.
  const probe = join(abs, `.agent-bench-write-check-${process.pid}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
    rmSync(probe);
  } catch (err) {
    throw new UsageError(`${flag} ${dir} is not writable (${code(err)}): choose another folder`);
  }
  return abs;
}

/** The absolute folder results are read from: it may be missing (no results yet), but not be a file. */
export function readableResultsDir(dir: string): string {
  const abs = resolve(dir);
  const st = existing(dir, abs);
  if (st !== null && !st.isDirectory()) throw notAFolder(dir, abs);
  return abs;
}

/** The path's stats, or null when it (or a folder on the way) is missing. */
function existing(dir: string, path: string, flag = '--results-dir'): Stats | null {
  try {
    return statSync(path);
  } catch (err) {
    if (code(err) === 'ENOENT' || code(err) === 'ENOTDIR') return null;
    throw new UsageError(`${flag} ${dir}: cannot reach ${path} (${code(err)})`);
  }
}

function notAFolder(dir: string, path: string, flag = '--results-dir'): UsageError {
  return new UsageError(
    path === resolve(dir) ? `${flag} ${dir} is not a folder` : `${flag} ${dir}: ${path} is not a folder`,
  );
}

function code(err: unknown): string {
  const c = (err as NodeJS.ErrnoException).code;
  return typeof c === 'string' ? c : String(err);
}
