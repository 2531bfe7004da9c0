import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | null = null;

/** The folder holding agent-bench's package.json, whether running from src/ (tests) or dist/ (built). */
export function packageRoot(): string {
  if (cached !== null) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('agent-bench: cannot find package.json above the running code');
    dir = parent;
  }
  cached = dir;
  return dir;
}
