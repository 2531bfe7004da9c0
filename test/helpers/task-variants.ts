/** Narrowing for tests that look inside a variant task: its variants as drawn, an instance as its kind. */
import type { GeneratedVariants, SeededVariants, Task } from '../../src/tasks/types.js';

export function generatedOf(task: Task | undefined): GeneratedVariants<Task> {
  const v = task?.variants;
  if (v?.drawn !== 'generator') throw new Error(`${task?.id}: no generated variants`);
  return v;
}

export function seededOf(task: Task | undefined): SeededVariants<Task> {
  const v = task?.variants;
  if (v?.drawn !== 'harness') throw new Error(`${task?.id}: no seeded variants`);
  return v;
}

export function ofKind<K extends Task['kind']>(task: Task | undefined, kind: K): Extract<Task, { kind: K }> {
  if (task?.kind !== kind) throw new Error(`${task?.id}: is not a ${kind} task`);
  return task as Extract<Task, { kind: K }>;
}
