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
