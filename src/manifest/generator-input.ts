/**
 * What a folder's generator reads: the folder's files, copied into its sandbox, and their digest,
 * which keys the cached instances and is part of the task's version.
 */
import { canonicalJson, sha256 } from '../util/hash.js';
import type { SkillFolder } from './folder.js';

/** The folder's files as the generator gets them (only the executable bit of a mode kept). */
export function folderFiles(folder: SkillFolder): { path: string; content: Buffer; mode: number }[] {
  return [...folder.files].map(([path, f]) => ({
    path,
    content: folder.read(path),
    mode: (f.mode & 0o111) === 0 ? 0o644 : 0o755,
  }));
}

/**
 * What the generator can read, as content (paths, executable bits, bytes), but the files named in
 * `unread` (a manifest and README, whose wording changes no instance).
 */
export function generatorDigest(folder: SkillFolder, unread: readonly string[]): string {
  const entries = [...folder.files.entries()]
    .filter(([rel]) => !unread.includes(rel))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([rel, f]) => [rel, (f.mode & 0o111) !== 0, sha256(folder.read(rel))]);
  return sha256(canonicalJson(entries)).slice(0, 16);
}
