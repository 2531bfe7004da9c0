/** Path rules shared by the file operations. */
import { posix } from 'node:path';
import { UsageError } from '../../util/errors.js';
import { WORKSPACE_DIR } from '../types.js';

/** Absolute, normalised form of `path` (relative paths resolve against `base`). */
export function resolvePath(path: string, base: string = WORKSPACE_DIR): string {
  if (path.length === 0) throw new UsageError('empty path');
  if (path.includes('\0')) throw new UsageError('a path cannot contain a NUL byte');
  const abs = posix.resolve(base, path);
  return abs.length > 1 ? abs.replace(/\/+$/, '') : abs;
}

/** Every proper ancestor of an absolute path, outermost first, without '/'. */
export function ancestors(abs: string): string[] {
  const parts = abs.split('/').filter((p) => p.length > 0);
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}
