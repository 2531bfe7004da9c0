/**
 * The built-in tasks, in the order `--tasks all` runs them (heavy ones last): every task folder
 * under tasks/ (found, never listed here: src/tasks/folder/), then the tasks still written in
 * TypeScript, then the bundled skills.
 */
import { join } from 'node:path';
import { dialogueTasks } from '../src/dialogue/task.js';
import { bundledSkills } from '../src/skills/bundled.js';
import { skillTask } from '../src/skills/skill-task.js';
import { loadTaskFolders } from '../src/tasks/folder/discover.js';
import type { Task } from '../src/tasks/types.js';
import { InternalError } from '../src/util/errors.js';
import { packageRoot } from '../src/util/package-root.js';
import { contextManageV1 } from './context_manage_v1/index.js';
import { tddOrderV1 } from './tdd_order_v1/index.js';
import { tddStrictV1 } from './tdd_strict_v1/index.js';
import { wrongFixTrapV1 } from './wrong_fix_trap_v1/index.js';

const MODULE_TASKS: readonly Task[] = [
  tddOrderV1,
  contextManageV1,
  // The failure-luring set, cheapest first; the heavy one runs last anyway.
  wrongFixTrapV1,
  tddStrictV1,
  // The bundled skills (skills/<name>/bench_manifest.json), tool_mirage_v1 among them.
  ...bundledSkills().map((skill) => skillTask(skill)),
];

let catalogue: readonly Task[] | null = null;

/** Read once: the folders are data, and a broken built-in one is our bug, reported with every problem. */
function builtIn(): readonly Task[] {
  if (catalogue !== null) return catalogue;
  const tasks = [
    ...loadTaskFolders([join(packageRoot(), 'tasks')], 'tasks').tasks,
    ...MODULE_TASKS,
    // The dialogue pack (tasks/helpdesk/: a policy and scenario files, src/dialogue/).
    ...dialogueTasks(),
  ];
  const ids = tasks.map((t) => t.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new InternalError(`two built-in tasks have the id ${twice}`);
  catalogue = tasks;
  return tasks;
}

export function allTasks(): Task[] {
  const light = builtIn().filter((t) => t.meta.heavy !== true);
  return [...light, ...builtIn().filter((t) => t.meta.heavy === true)];
}

/** The task with this id, or undefined. */
export function getTask(id: string): Task | undefined {
  return builtIn().find((t) => t.id === id);
}
