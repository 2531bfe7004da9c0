/**
 * One adversarial trial's plan: the payload class (dealt by deal.ts, so every model gets the same
 * one), the site (every tool return with a seeded chance, or the task's fixed site), the nonce and
 * the planted secret; the secret planted in the sandbox; and the hook that places the payload.
 */
import { DEFAULT_INJECTION_RATE, type RunCondition, type TaskSlot } from '../../results/condition.js';
import type { PlacedInjection } from '../../results/trial.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { CallHook } from '../conditions/call-hook.js';
import { classesNamed, INJECTION_CLASSES, type InjectionClass, payloadParts } from './catalogue.js';
import { carriesPayload, classFor } from './deal.js';
import { SECRET_PATH, type TrialSecrets, trialSecrets } from './secrets.js';
import { type InjectionSite, type InjectionTarget, showsSite, siteFor, siteLabel } from './site.js';

export type AdversarialCondition = Extract<RunCondition, { name: 'adversarial' }>;

export interface InjectionPlan {
  taskId: string;
  trial: number;
  seed: number;
  injection: InjectionClass;
  site: InjectionSite;
  secrets: TrialSecrets;
  /** The payload as placed: one part per tool return, a later part only in a later turn. */
  parts: readonly string[];
  /** The parts joined: the whole payload, for what reads it as one. */
  text: string;
}

export function planInjection(
  task: InjectionTarget,
  trial: number,
  condition: AdversarialCondition = { name: 'adversarial' },
  slot?: TaskSlot,
): InjectionPlan {
  const named = condition.injection_classes === undefined ? null : classesNamed(condition.injection_classes);
  // The CLI checked the names; a results file with a class this catalogue lacks falls back to all.
  const classes = named?.ok === true && named.classes.length > 0 ? named.classes : INJECTION_CLASSES;
  const injection = classFor(classes, task.id, trial, slot);
  const secrets = trialSecrets(task.id, trial);
  const parts = payloadParts(injection, { head: secrets.nonce.head, tail: secrets.nonce.tail });
  return {
    taskId: task.id,
    trial,
    seed: condition.injection_seed ?? 0,
    injection,
    site:
      condition.injection_site === 'sampled'
        ? { kind: 'sampled', rate: condition.injection_rate ?? DEFAULT_INJECTION_RATE }
        : siteFor(task),
    secrets,
    parts,
    text: parts.join('\n'),
  };
}

/** The credentials file the payloads ask for, where the agent's HOME puts it. */
export async function plantSecret(sandbox: Sandbox, plan: InjectionPlan): Promise<void> {
  await sandbox.putFiles([{ path: SECRET_PATH, content: plan.secrets.credentials, mode: 0o600 }], {
    owner: 'agent',
  });
}

/**
 * Adds the payload after the real output of the calls it lands on: with a sampled site, each call
 * the draw picks (call i is the i-th call that reached the tools); with a fixed site, every call
 * whose result shows the site. A payload in parts shows its first part until a later turn, then
 * the next part on the next call it lands on (with a fixed site: the next call of a later turn).
 */
export function injectionHook(plan: InjectionPlan): CallHook {
  let next = 0;
  // The turn each part was first placed on, in order.
  const placedTurns: number[] = [];
  return async (call, run) => {
    const index = next++;
    const outcome = await run();
    if (outcome.log.invalid !== null || outcome.log.fault !== undefined) return outcome;
    const part = nextPart(placedTurns, plan.parts.length, call.turn);
    const due = placedTurns.length > 0 && part === placedTurns.length;
    const lands =
      plan.site.kind === 'sampled'
        ? carriesPayload(plan, index, plan.site.rate)
        : due || showsSite(plan.site, call, outcome.log, placedTurns.length > 0);
    if (!lands) return outcome;
    if (part === placedTurns.length) placedTurns.push(call.turn);
    const text = `\n${plan.parts[part]}`;
    const placed: PlacedInjection = {
      class: plan.injection.id,
      site: siteLabel(plan.site),
      text,
      ...(plan.site.kind === 'sampled' ? { call_index: index } : {}),
      ...(plan.parts.length > 1 ? { part: { index: part + 1, of: plan.parts.length } } : {}),
    };
    return { log: { ...outcome.log, injection: placed }, reply: outcome.reply + text };
  };
}

/** The part a payload shows next: the first until placed, each later one only on a later turn than the one before. */
function nextPart(placedTurns: readonly number[], parts: number, turn: number): number {
  const last = placedTurns.at(-1);
  if (last === undefined) return 0;
  return placedTurns.length < parts && turn > last ? placedTurns.length : placedTurns.length - 1;
}
