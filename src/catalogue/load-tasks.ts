/**
 * Where tasks come from, in one place: a folder some format claims is one (a task folder, a Harbor
 * task, a skill folder, a dialogue pack); any other folder given holds them, one level down, in name
 * order (tasks/, skills/, a --tasks-dir). Nothing registers them: a folder that is there is a task.
 * Every folder found is loaded, and the problems of all of them are reported in one error, before
 * anything starts.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AgentBenchError, UsageError } from '../util/errors.js';
import type { FoundTasks, TaskFormat } from './format.js';
import { dialogueFormat } from './format-dialogue.js';
import { harborFormat } from './format-harbor.js';
import { nativeFormat } from './format-native.js';
import { skillFormat } from './format-skill.js';

/** Asked in this order: a Harbor task also has a task.toml, so it is claimed before a native one. */
const FORMATS: readonly TaskFormat[] = [harborFormat, nativeFormat, skillFormat, dialogueFormat];

function formatOf(dir: string): TaskFormat | undefined {
  return FORMATS.find((f) => f.claims(dir));
}

/** The task folders at `root` (itself, or its sub-folders in name order). */
export function taskFoldersIn(root: string): string[] {
  if (formatOf(root) !== undefined) return [root];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => join(root, e.name))
    .sort()
    .filter((dir) => formatOf(dir) !== undefined);
}

/** Every task under the roots; `option` names where a root came from in messages (`--tasks-dir`). */
export function loadTasks(roots: readonly string[], option: string): FoundTasks {
  const found: FoundTasks = { tasks: [], harbor: [], unusableHarbor: [], skills: [], warnings: [] };
  const errors: string[] = [];
  for (const root of roots) {
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      errors.push(`${option} ${root}: no such folder`);
      continue;
    }
    const dirs = taskFoldersIn(root);
    if (dirs.length === 0)
      errors.push(
        `${option} ${root}: no task folder here; looked for ${FORMATS.map((f) => f.noun).join(', ')}`,
      );
    for (const dir of dirs) {
      try {
        const got = (formatOf(dir) as TaskFormat).load(dir);
        found.tasks.push(...(got.tasks ?? []));
        found.harbor.push(...(got.harbor ?? []));
        found.skills.push(...(got.skills ?? []));
        found.unusableHarbor.push(...(got.unusableHarbor ?? []));
        found.warnings.push(...(got.warnings ?? []));
      } catch (err) {
        if (!(err instanceof AgentBenchError)) throw err;
        errors.push(err.message);
      }
    }
  }
  if (errors.length > 0) throw new UsageError(errors.join('\n'));
  return found;
}
