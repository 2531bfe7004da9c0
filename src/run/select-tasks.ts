import { allTasks, getTask } from '../../tasks/index.js';
import type { Task } from '../tasks/types.js';
import { UsageError } from '../util/errors.js';

/** "all" or a comma-separated list of ids; an unknown id is a usage error naming the known ones. */
export function selectTasks(spec: string): Task[] {
  const ids = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (ids.length === 0 || (ids.length === 1 && ids[0] === 'all')) return allTasks();
  return ids.map((id) => {
    const task = getTask(id);
    if (task === undefined) {
      throw new UsageError(
        `unknown task "${id}"; known tasks: ${allTasks()
          .map((t) => t.id)
          .join(', ')}`,
      );
    }
    return task;
  });
}
