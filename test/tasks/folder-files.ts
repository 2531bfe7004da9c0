/** The files and tasks of the built-in task folders (tasks/<id>/), for tests that use their fixtures. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkspaceTask } from '../../src/tasks/types.js';
import { getTask } from '../../tasks/index.js';

const TASKS = join(import.meta.dirname, '..', '..', 'tasks');

/** tasks/<id>/<path>, as text: `files/x.py` is the starting workspace, `solution/x.py` the fix. */
export function taskFolderFile(id: string, path: string): string {
  return readFileSync(join(TASKS, id, path), 'utf8');
}

/** A built-in task with a workspace (not a dialogue task), by id. */
export function builtInTask(id: string): WorkspaceTask {
  const task = getTask(id);
  if (task === undefined) throw new Error(`no built-in task ${id}`);
  if (task.kind === 'dialogue') throw new Error(`${id} is a dialogue task: it has no workspace`);
  return task;
}
