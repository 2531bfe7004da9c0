/**
 * What a generator wrote for one instance: files/ (the starting workspace), hidden/, solution/
 * (what the scripts' `{ "$file" = "solution/…" }` read) and instance.json, each path relative to
 * its OUTDIR. Nothing else: the rest of the task is the folder's.
 */
import { canonicalJson, sha256 } from '../../util/hash.js';

export interface InstanceFile {
  content: Buffer;
  /** 0o644 or 0o755: only the executable bit is kept, as for a task folder. */
  mode: number;
}

export type InstanceTree = ReadonlyMap<string, InstanceFile>;

/**
 * The folders and file a generated instance replaces in its task's folder (a task folder's files/,
 * hidden/ and solution/, src/catalogue/native/layout.ts, and its values).
 */
const GENERATED_DIRS = ['files', 'hidden', 'solution'] as const;
export const INSTANCE_FILE = 'instance.json';
const FILES_DIR = 'files';

/** Whether a path of the task folder is the generator's to write (and so not the folder's in an instance). */
export function isGenerated(rel: string): boolean {
  return rel === INSTANCE_FILE || GENERATED_DIRS.some((d) => rel.startsWith(`${d}/`));
}

/** What is wrong with a tree the generator wrote, in one line, or null. */
export function treeProblem(tree: InstanceTree): string | null {
  const stray = [...tree.keys()].find((rel) => !isGenerated(rel) || rel.split('/').includes('..'));
  if (stray !== undefined)
    return `wrote ${stray}: a generator writes only ${GENERATED_DIRS.join('/, ')}/ and ${INSTANCE_FILE}`;
  if (!tree.has(INSTANCE_FILE)) return `wrote no ${INSTANCE_FILE}`;
  if (![...tree.keys()].some((rel) => rel.startsWith(`${FILES_DIR}/`)))
    return `wrote nothing under ${FILES_DIR}/`;
  return null;
}

/** Where a skill folder keeps its instance's values: bench-only, so the agent never reads them. */
export const SKILL_INSTANCE_FILE = '.bench/instance.json';
const SKILL_MANIFEST = 'bench_manifest.json';

/**
 * What is wrong with a tree a skill's generator wrote, in one line, or null. It writes any file of
 * the skill folder (the data its scripts read, bench-only files under .bench/) but the manifest,
 * whose `{{instance.*}}` the values fill, and keeps its values in .bench/instance.json.
 */
export function skillTreeProblem(tree: InstanceTree): string | null {
  const stray = [...tree.keys()].find((rel) => rel === SKILL_MANIFEST || rel.split('/').includes('..'));
  if (stray !== undefined)
    return `wrote ${stray}: a skill's generator writes the folder's files but ${SKILL_MANIFEST}`;
  if (!tree.has(SKILL_INSTANCE_FILE)) return `wrote no ${SKILL_INSTANCE_FILE}`;
  return null;
}

/** The tree as content: two runs of a deterministic generator give the same digest. */
export function instanceDigest(tree: InstanceTree): string {
  const entries = [...tree.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rel, f]) => [rel, f.mode, sha256(f.content)]);
  return sha256(canonicalJson(entries));
}
