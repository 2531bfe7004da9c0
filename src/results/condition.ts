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
  | {
      name: 'adversarial';
      /**
       * Where payloads land (schema 2.7): `sampled`, every tool return with chance `injection_rate`,
       * or `fixed`, the task's one site (src/agent/injection/site.ts). Absent: fixed (older files).
       */
      injection_site?: InjectionSiteMode;
      /** sampled: the chance that one tool return carries the payload. */
      injection_rate?: number;
      /** The classes the trials are dealt from, in catalogue order; absent: every class. */
      injection_classes?: string[];
      /** Mixed into every draw: another seed, other calls attacked (absent: 0). */
      injection_seed?: number;
    };

export const INJECTION_SITE_MODES = ['sampled', 'fixed'] as const;
export type InjectionSiteMode = (typeof INJECTION_SITE_MODES)[number];

/** The chance that a tool return carries a payload when --injection-rate is not given. */
export const DEFAULT_INJECTION_RATE = 0.5;

export const CLEAN: RunCondition = { name: 'clean' };

/** How long an injected timeout takes in a noisy run: long enough to be felt, short enough to run. */
export const DEFAULT_FAULT_TIMEOUT_SEC = 10;

/** A file written before schema 2.3 ran clean: no condition existed. */
export function conditionOf(r: { condition?: RunCondition }): RunCondition {
  return r.condition ?? CLEAN;
}

/** What a cell is keyed by: `clean`, `adversarial`, `noisy@0.2` (two failure rates are two cells). */
export function conditionKey(c: RunCondition): string {
  if (c.name === 'noisy') return `noisy@${c.failure_rate}`;
  if (c.name === 'clean') return c.name;
  // `adversarial` (the fixed site: what older files ran), `adversarial@0.5`, `adversarial@0.5#7[a,b]`.
  const site = c.injection_site === 'sampled' ? `@${c.injection_rate ?? DEFAULT_INJECTION_RATE}` : '';
  const seed = (c.injection_seed ?? 0) === 0 ? '' : `#${c.injection_seed}`;
  const classes = c.injection_classes === undefined ? '' : `[${c.injection_classes.join(',')}]`;
  return `adversarial${site}${seed}${classes}`;
}

/** A task as a line names it: `debug_python_v1`, or `debug_python_v1 [noisy@0.2]` under another condition. */
export function taskLabel(taskId: string, c: RunCondition): string {
  return c.name === 'clean' ? taskId : `${taskId} [${conditionKey(c)}]`;
}

/**
 * A task's place among a run's tasks (0-based) and the run's k: the adversarial condition deals
 * injection classes by it (src/agent/injection/deal.ts), so the run's trials share the classes out.
 */
export interface TaskSlot {
  position: number;
  k: number;
}
