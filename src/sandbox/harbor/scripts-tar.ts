/** A Harbor task folder's scripts (tests/, solution/) as a tar of root-owned files at a target path. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packTar, type TarEntry } from '../docker/tar.js';
import type { HarborScripts } from '../types.js';

/** `scripts`' files under `target` (0755, root-owned, as Harbor uploads them), every folder included. */
export function scriptsTar(scripts: HarborScripts, target: string): Promise<Buffer> {
  const entries: TarEntry[] = [{ path: target, type: 'directory', mode: 0o755, uid: 0 }];
  for (const rel of scripts.files)
    entries.push({
      path: `${target}/${rel}`,
      type: 'file',
      mode: 0o755,
      uid: 0,
      content: readFileSync(join(scripts.dir, rel)),
    });
  return packTar(withParents(entries));
}

/** Every file's folders, so nested test files land in folders that exist. */
function withParents(entries: TarEntry[]): TarEntry[] {
  const dirs = new Set(entries.filter((e) => e.type === 'directory').map((e) => e.path));
  const out: TarEntry[] = [];
  for (const e of entries) {
    const parts = e.path.split('/').slice(1, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = `/${parts.slice(0, i).join('/')}`;
      if (!dirs.has(dir)) {
        dirs.add(dir);
        out.push({ path: dir, type: 'directory', mode: 0o755, uid: 0 });
      }
    }
    out.push(e);
  }
  return out;
}
