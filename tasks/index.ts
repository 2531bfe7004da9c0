/**
 * The built-in tasks, in the order `--tasks all` runs them (heavy ones last): every folder under
 * tasks/ and skills/ (src/catalogue/), then the tasks still written in TypeScript (being ported to
 * folders; this file goes with the last of them).
 */
import { builtIn } from '../src/catalogue/built-in.js';
import type { Task } from '../src/tasks/types.js';
import { bigFileEditV1 } from './big_file_edit_v1/index.js';
import { refactorExtractJsV1 } from './refactor_extract_js_v1/index.js';
import { tddStrictJsV1 } from './tdd_strict_js_v1/index.js';
import { tsTypingV1 } from './ts_typing_v1/index.js';

const MODULE_TASKS: readonly Task[] = [
  // JS/TS, checked on the syntax tree (@babel/parser), cheapest first.
  tddStrictJsV1,
  refactorExtractJsV1,
  tsTypingV1,
  // Heavy: runs last anyway.
  bigFileEditV1,
];

function builtInTasks(): readonly Task[] {
  return [...builtIn().tasks, ...MODULE_TASKS];
}

export function allTasks(): Task[] {
  const light = builtInTasks().filter((t) => t.meta.heavy !== true);
  return [...light, ...builtInTasks().filter((t) => t.meta.heavy === true)];
}

/** The task with this id, or undefined. */
export function getTask(id: string): Task | undefined {
  return builtInTasks().find((t) => t.id === id);
}
