/**
 * The content digest of a skill folder: every file's path, executable bit and bytes (the manifest
 * and bench-only files included, since they decide what a trial means). Recorded in results, and
 * part of the task version, so results of a changed skill are never compared with old ones.
 */

import type { SkillFolder } from '../manifest/folder.js';
import { sha256 } from '../util/hash.js';

export function skillDigest(folder: SkillFolder): string {
  const lines = [...folder.files]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, f]) => `${JSON.stringify(path)} ${f.mode & 0o111 ? 'x' : '-'} ${sha256(folder.read(path))}`);
  return `sha256:${sha256(lines.join('\n'))}`;
}
