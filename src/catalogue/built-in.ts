/**
 * The built-in tasks: every folder under the package's tasks/ and skills/, read by the same loaders
 * as a user's (load-tasks.ts). Read once: they are data, and a broken built-in one is our bug,
 * reported with every problem.
 */
import { join } from 'node:path';
import type { Task } from '../tasks/types.js';
import { InternalError } from '../util/errors.js';
import { packageRoot } from '../util/package-root.js';
import type { FoundTasks } from './format.js';
import { loadTasks } from './load-tasks.js';

const KIND_ORDER: readonly Task['kind'][] = ['sandbox', 'harbor', 'skill', 'dialogue'];

let found: FoundTasks | null = null;

export function builtIn(): FoundTasks {
  if (found !== null) return found;
  const root = packageRoot();
  const loaded = loadTasks([join(root, 'tasks'), join(root, 'skills')], 'built-in tasks in');
  // Workspace tasks first, then the skills, then the dialogue pack: the order `--tasks all` runs them in.
  loaded.tasks.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  const ids = loaded.tasks.map((t) => t.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new InternalError(`two built-in tasks have the id ${twice}`);
  found = loaded;
  return loaded;
}

/** The built-in tasks in the order `--tasks all` runs them: light before heavy, each group in load order. */
export function allTasks(): Task[] {
  const { tasks } = builtIn();
  return [...tasks.filter((t) => t.meta.heavy !== true), ...tasks.filter((t) => t.meta.heavy === true)];
}

/** The built-in task with this id, or undefined. */
export function getTask(id: string): Task | undefined {
  return builtIn().tasks.find((t) => t.id === id);
}
