/**
 * Where task folders are: a folder with task.toml or task.json is one; any other folder given
 * holds them, one level down (tasks/, or a --tasks-dir). Nothing registers them: a folder that is
 * there is a task. A folder with task.toml and a Harbor verifier (tests/test.sh) or environment
 * (environment/) is a Harbor task, read as Harbor defines it (harbor/). Every folder found is
 * loaded, and the problems of all of them are reported in one error, before anything starts.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AgentBenchError, UsageError } from '../../util/errors.js';
import type { Task } from '../types.js';
import { HARBOR_ENVIRONMENT, HARBOR_TEST_SCRIPT, type HarborTask, loadHarborFolder } from './harbor/load.js';
import { MANIFEST_FILES } from './layout.js';
import { loadTaskFolder } from './load.js';

function isTaskFolder(dir: string): boolean {
  return MANIFEST_FILES.some((f) => existsSync(join(dir, f)));
}

function isHarborFolder(dir: string): boolean {
  return (
    existsSync(join(dir, 'task.toml')) &&
    (existsSync(join(dir, HARBOR_TEST_SCRIPT)) || existsSync(join(dir, HARBOR_ENVIRONMENT)))
  );
}

/** The task folders at `root` (itself, or its sub-folders in name order). */
export function taskFoldersIn(root: string): string[] {
  if (isTaskFolder(root)) return [root];
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => join(root, e.name))
    .sort()
    .filter(isTaskFolder);
}

export interface TaskFolders {
  tasks: Task[];
  /** Harbor task folders, read but not run by agent-bench yet. */
  harbor: HarborTask[];
}

/** Every task under the roots; `option` names where a root came from in messages (`--tasks-dir`). */
export function loadTaskFolders(roots: readonly string[], option: string): TaskFolders {
  const found: TaskFolders = { tasks: [], harbor: [] };
  const errors: string[] = [];
  for (const root of roots) {
    if (!existsSync(root) || !statSync(root).isDirectory()) {
      errors.push(`${option} ${root}: no such folder`);
      continue;
    }
    const dirs = taskFoldersIn(root);
    if (dirs.length === 0)
      errors.push(`${option} ${root}: no task folder here (a folder with ${MANIFEST_FILES.join(' or ')})`);
    for (const dir of dirs) {
      try {
        if (isHarborFolder(dir)) found.harbor.push(loadHarborFolder(dir));
        else found.tasks.push(loadTaskFolder(dir));
      } catch (err) {
        if (!(err instanceof AgentBenchError)) throw err;
        errors.push(err.message);
      }
    }
  }
  if (errors.length > 0) throw new UsageError(errors.join('\n'));
  return found;
}
