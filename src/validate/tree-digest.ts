/**
 * The content digest of files and folders: every file's path, executable bit and bytes, and every
 * link's target, in a fixed order. Paths are relative to the root given, so two clones of the same
 * content hash equally. Version-control folders, installed packages and Python caches are left out:
 * they are no part of what decides a verdict (package versions are pinned by package-lock.json).
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../util/hash.js';

const SKIPPED = new Set(['.git', 'node_modules', '__pycache__', '.DS_Store']);

/**
 * sha256 over the entries under `root` (files or folders, relative paths); `skip(rel)` leaves a
 * path out. A missing entry hashes as missing, so adding it later changes the digest.
 */
export function treeDigest(
  root: string,
  entries: readonly string[],
  skip: (rel: string) => boolean = () => false,
): string {
  const lines: string[] = [];
  const visit = (rel: string): void => {
    if (skip(rel)) return;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(join(root, rel));
    } catch {
      lines.push(`${JSON.stringify(rel)} missing`);
      return;
    }
    if (st.isSymbolicLink()) lines.push(`${JSON.stringify(rel)} -> ${readlinkSync(join(root, rel))}`);
    else if (st.isDirectory()) {
      for (const name of readdirSync(join(root, rel)).sort())
        if (!SKIPPED.has(name)) visit(rel === '' ? name : `${rel}/${name}`);
    } else if (st.isFile()) {
      const x = st.mode & 0o111 ? 'x' : '-';
      lines.push(`${JSON.stringify(rel)} ${x} ${sha256(readFileSync(join(root, rel)))}`);
    }
  };
  for (const entry of [...entries].sort()) visit(entry);
  return sha256(lines.join('\n'));
}
