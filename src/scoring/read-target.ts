/** What one read covered: a file, a shell glob of files, or a recursive search under a directory. */
import { compileGlob } from './glob.js';
import { isWithin } from './paths.js';

export interface TreeFilter {
  /** Base-name globs a file must match (any), as grep --include / find -name. Empty: every file. */
  include: string[];
  /** Base-name globs that exclude a file (grep --exclude, find ! -name). */
  exclude: string[];
  /** Directory-name globs not descended into (grep --exclude-dir). */
  excludeDir: string[];
  /** Levels below the root that are searched (find -maxdepth); null: all. */
  maxDepth: number | null;
}

export type ReadTarget =
  /** `range` is what part was shown: null for the whole file, else the command's own words. */
  | { kind: 'file'; path: string; range: string | null }
  /** An absolute shell glob (`cat services/*.py`): every file it matches was read. */
  | { kind: 'glob'; pattern: string; range: string | null }
  /**
   * A recursive search (`grep -rn X .`): files under `root` (a directory, or an absolute glob of
   * them when rootIsGlob) that pass the filter were searched.
   */
  | { kind: 'tree'; root: string; rootIsGlob: boolean; filter: TreeFilter; range: string | null };

export const NO_FILTER: TreeFilter = { include: [], exclude: [], excludeDir: [], maxDepth: null };

/** Whether the read covered the file at `absPath`. */
export function covers(target: ReadTarget, absPath: string): boolean {
  switch (target.kind) {
    case 'file':
      return target.path === absPath;
    case 'glob':
      return compileGlob(target.pattern).test(absPath);
    case 'tree':
      return treeRoots(target, absPath).some((root) => passesFilter(target.filter, root, absPath));
  }
}

function treeRoots(target: Extract<ReadTarget, { kind: 'tree' }>, absPath: string): string[] {
  if (!target.rootIsGlob) return isWithin(absPath, target.root) ? [target.root] : [];
  const re = compileGlob(target.root);
  const parts = absPath.split('/');
  const roots: string[] = [];
  for (let n = 2; n <= parts.length; n++) {
    const prefix = parts.slice(0, n).join('/');
    if (re.test(prefix)) roots.push(prefix);
  }
  return roots;
}

function passesFilter(filter: TreeFilter, root: string, absPath: string): boolean {
  const rel = absPath === root ? [] : absPath.slice(root === '/' ? 1 : root.length + 1).split('/');
  if (filter.maxDepth !== null && rel.length > filter.maxDepth) return false;
  const dirs = rel.slice(0, -1);
  if (dirs.some((d) => filter.excludeDir.some((g) => compileGlob(g).test(d)))) return false;
  const base = absPath.slice(absPath.lastIndexOf('/') + 1);
  if (filter.exclude.some((g) => compileGlob(g).test(base))) return false;
  return filter.include.length === 0 || filter.include.some((g) => compileGlob(g).test(base));
}
