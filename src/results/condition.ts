/**
 * The condition a result's trials ran under (schema 2.3): clean, noisy (tool calls may return an
 * injected fault instead of running) or adversarial (tool outputs carry injection payloads). It is
 * part of a result's identity: results of different conditions are never one cell.
 */
export const CONDITION_NAMES = ['clean', 'noisy', 'adversarial'] as const;
export type ConditionName = (typeof CONDITION_NAMES)[number];

export type RunCondition =
  | { name: 'clean' }
  | {
      name: 'noisy';
      /** Chance that one tool call returns an injected fault instead of running. */
      failure_rate: number;
      /** How long an injected timeout takes before it answers. */
      fault_timeout_sec: number;
    }
  | { name: 'adversarial' };

export const CLEAN: RunCondition = { name: 'clean' };

/** How long an injected timeout takes in a noisy run: long enough to be felt, short enough to run. */
export const DEFAULT_FAULT_TIMEOUT_SEC = 10;

/** A file written before schema 2.3 ran clean: no condition existed. */
export function conditionOf(r: { condition?: RunCondition }): RunCondition {
  return r.condition ?? CLEAN;
}

/** What a cell is keyed by: `clean`, `adversarial`, `noisy@0.2` (two failure rates are two cells). */
export function conditionKey(c: RunCondition): string {
  return c.name === 'noisy' ? `noisy@${c.failure_rate}` : c.name;
}

/** A task as a line names it: `debug_python_v1`, or `debug_python_v1 [noisy@0.2]` under another condition. */
export function taskLabel(taskId: string, c: RunCondition): string {
  return c.name === 'clean' ? taskId : `${taskId} [${conditionKey(c)}]`;
}
