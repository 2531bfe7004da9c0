/**
 * Generated instances kept on this machine, under $AGENT_BENCH_CACHE/variants (default
 * ~/.cache/agent-bench/variants), keyed by what the generator can read and the SEED: a resumed run,
 * the other shards on this machine and `validate` reuse an instance instead of starting a container
 * to draw it again. Kept beside the proofs rather than in a results folder because validate has none
 * and the key holds everything the instance depends on, so any run may share it. An entry is
 * written whole (a temporary folder renamed into place) or not at all.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cacheRoot } from '../../util/cache-dir.js';
import type { InstanceFile, InstanceTree } from './instance-tree.js';

export function defaultInstanceDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'variants');
}

export interface InstanceCache {
  load(generatorDigest: string, seed: string): Promise<InstanceTree | null>;
  save(generatorDigest: string, seed: string, tree: InstanceTree): Promise<void>;
}

export function instanceCache(dir: string = defaultInstanceDir()): InstanceCache {
  const entry = (digest: string, seed: string): string => join(dir, digest, seed);
  return {
    async load(digest, seed) {
      const root = entry(digest, seed);
      try {
        return await readTree(root);
      } catch {
        return null;
      }
    },
    async save(digest, seed, tree) {
      const root = entry(digest, seed);
      const tmp = `${root}.tmp-${process.pid}-${Date.now()}`;
      for (const [rel, f] of tree) {
        await mkdir(dirname(join(tmp, rel)), { recursive: true });
        await writeFile(join(tmp, rel), f.content, { mode: f.mode });
      }
      await mkdir(dirname(root), { recursive: true });
      // Another process may have drawn the same instance meanwhile: its copy is the same.
      await rename(tmp, root).catch(() => rm(tmp, { recursive: true, force: true }));
    },
  };
}

async function readTree(root: string): Promise<InstanceTree> {
  const tree = new Map<string, InstanceFile>();
  for (const rel of await readdir(root, { recursive: true })) {
    const path = join(root, rel);
    const s = await stat(path);
    if (!s.isFile()) continue;
    tree.set(rel.split('\\').join('/'), {
      content: await readFile(path),
      mode: (s.mode & 0o111) === 0 ? 0o644 : 0o755,
    });
  }
  return tree;
}
