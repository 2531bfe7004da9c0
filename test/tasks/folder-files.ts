/** The files and tasks of the built-in task folders (tasks/<id>/), for tests that use their fixtures. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Task } from '../../src/tasks/types.js';
import { getTask } from '../../tasks/index.js';

const TASKS = join(import.meta.dirname, '..', '..', 'tasks');

/** tasks/<id>/<path>, as text: `files/x.py` is the starting workspace, `solution/x.py` the fix. */
export function taskFolderFile(id: string, path: string): string {
  return readFileSync(join(TASKS, id, path), 'utf8');
}

export function builtInTask(id: string): Task {
  const task = getTask(id);
  if (task === undefined) throw new Error(`no built-in task ${id}`);
  return task;
}
