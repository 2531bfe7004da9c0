/**
 * Tool paths to the one form checks compare: a normalized absolute path. Resolution is lexical:
 * `.`/`..` and repeated slashes are folded, symlinks are not followed (a read through a link is a
 * read of the link's path), and `~` is not expanded (the agent's home is not the workspace).
 */
import { posix } from 'node:path';
import { WORKSPACE_DIR } from '../sandbox/types.js';

/** `p` resolved against the directory a call ran in; a relative cwd is taken under /workspace. */
export function resolvePath(cwd: string, p: string): string {
  const base = cwd.startsWith('/') ? cwd : posix.join(WORKSPACE_DIR, cwd);
  return posix.resolve(base, p);
}

/** The snapshot key of an absolute path: relative to /workspace, '' for /workspace, null outside. */
export function workspaceRelative(abs: string): string | null {
  if (abs === WORKSPACE_DIR) return '';
  if (abs.startsWith(`${WORKSPACE_DIR}/`)) return abs.slice(WORKSPACE_DIR.length + 1);
  return null;
}

/** The absolute path of a snapshot key. */
export function workspaceAbsolute(rel: string): string {
  return rel === '' ? WORKSPACE_DIR : `${WORKSPACE_DIR}/${rel}`;
}

/** Whether `abs` is `dir` itself or lies below it. */
export function isWithin(abs: string, dir: string): boolean {
  if (dir === '/') return abs.startsWith('/');
  return abs === dir || abs.startsWith(`${dir}/`);
}
