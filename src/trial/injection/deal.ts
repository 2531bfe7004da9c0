/**
 * What the adversarial condition deals each trial and each call, from sha256 alone, never the
 * model: every model meets the same class on the same trial and the same payloads on the same calls.
 * - The class: trials are dealt the classes in turn across the run's tasks (task at position p, trial
 *   i: class (p·k + i) mod C), so each class meets every task when k ≥ C and the tasks share the
 *   classes out when k < C (4 tasks × k=5 deal 20 trials over 17 classes: every class at least once).
 *   Without a place in a run (one trial on its own) the offset is a hash of the task, as before 2.7.
 * - Whether call i of a trial carries the payload (sampled site): a draw from
 *   sha256(task | adversarial | trial | i | seed) under the rate, so a higher rate attacks a superset
 *   of the calls a lower one does.
 */
import type { TaskSlot } from '../../results/condition.js';
import { sha256 } from '../../util/hash.js';
import type { InjectionClass } from './catalogue.js';

export function classFor(
  classes: readonly InjectionClass[],
  taskId: string,
  trial: number,
  slot: TaskSlot | undefined,
): InjectionClass {
  const offset =
    slot === undefined
      ? Number.parseInt(sha256(`${taskId}|adversarial|class`).slice(0, 8), 16)
      : slot.position * slot.k;
  return classes[(offset + trial) % classes.length] as InjectionClass;
}

export interface CallDraw {
  taskId: string;
  trial: number;
  seed: number;
}

/** Whether call `call` (0-based, in the order the trial's calls reached the tools) carries the payload. */
export function carriesPayload(d: CallDraw, call: number, rate: number): boolean {
  const hex = sha256(`${d.taskId}|adversarial|${d.trial}|${call}|${d.seed}`);
  // 52 bits: exactly representable, uniform on [0, 1).
  return Number.parseInt(hex.slice(0, 13), 16) / 2 ** 52 < rate;
}
