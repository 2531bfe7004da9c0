/**
 * The skills that ship with agent-bench (skills/<name>/ at the package root), each its own task in
 * `--tasks all`. Loaded once, synchronously, with the task registry; a broken bundled manifest is
 * our bug and fails loudly.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { MANIFEST_FILE } from './folder.js';
import { type LoadedSkill, loadSkill } from './load.js';

let cached: LoadedSkill[] | null = null;

export function bundledSkills(): LoadedSkill[] {
  cached ??= skillsIn(join(packageRoot(), 'skills'));
  return cached;
}

/** Every folder of root that holds a manifest, in name order. */
function skillsIn(root: string): LoadedSkill[] {
  const names = existsSync(root) ? readdirSync(root).sort() : [];
  return names.filter((n) => existsSync(join(root, n, MANIFEST_FILE))).map((n) => loadSkill(join(root, n)));
}
