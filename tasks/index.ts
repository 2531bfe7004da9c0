/** The task registry: every builtin task, in the order `--tasks all` runs them (heavy ones last). */
import { bundledSkills } from '../src/skills/bundled.js';
import { skillTask } from '../src/skills/skill-task.js';
import type { Task } from '../src/tasks/types.js';
import { bigFileEditV1 } from './big_file_edit_v1/index.js';
import { contextManageV1 } from './context_manage_v1/index.js';
import { debugJsV1 } from './debug_js_v1/index.js';
import { debugPythonV1 } from './debug_python_v1/index.js';
import { docTrapV1 } from './doc_trap_v1/index.js';
import { longProcedureV1 } from './long_procedure_v1/index.js';
import { refactorExtractJsV1 } from './refactor_extract_js_v1/index.js';
import { tddOrderV1 } from './tdd_order_v1/index.js';
import { tddStrictJsV1 } from './tdd_strict_js_v1/index.js';
import { tddStrictV1 } from './tdd_strict_v1/index.js';
import { tsTypingV1 } from './ts_typing_v1/index.js';
import { wrongFixTrapV1 } from './wrong_fix_trap_v1/index.js';

const TASKS: readonly Task[] = [
  debugPythonV1,
  tddOrderV1,
  contextManageV1,
  // JS/TS, checked on the syntax tree (@babel/parser), cheapest first.
  debugJsV1,
  tddStrictJsV1,
  refactorExtractJsV1,
  tsTypingV1,
  // The failure-luring set, cheapest first; the two heavy ones run last anyway.
  docTrapV1,
  wrongFixTrapV1,
  tddStrictV1,
  bigFileEditV1,
  longProcedureV1,
  // The bundled skills (skills/<name>/bench_manifest.json), tool_mirage_v1 among them.
  ...bundledSkills().map((skill) => skillTask(skill)),
];

export function allTasks(): Task[] {
  const light = TASKS.filter((t) => t.meta.heavy !== true);
  return [...light, ...TASKS.filter((t) => t.meta.heavy === true)];
}

/** The task with this id, or undefined. */
export function getTask(id: string): Task | undefined {
  return TASKS.find((t) => t.id === id);
}
