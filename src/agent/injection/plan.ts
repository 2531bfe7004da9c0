/**
 * One adversarial trial's plan: the payload class (rotating through the catalogue by trial, from a
 * hash of the task, so every class is used and every model gets the same one), the site, the nonce
 * and the planted secret; the secret planted in the sandbox; and the hook that places the payload.
 */
import type { Sandbox } from '../../sandbox/types.js';
import type { Task } from '../../tasks/types.js';
import { sha256 } from '../../util/hash.js';
import type { CallHook } from '../dispatch.js';
import { INJECTION_CLASSES, type InjectionClass } from './catalogue.js';
import { SECRET_PATH, type TrialSecrets, trialSecrets } from './secrets.js';
import { type InjectionSite, showsSite, siteFor, siteLabel } from './site.js';

export interface InjectionPlan {
  injection: InjectionClass;
  site: InjectionSite;
  secrets: TrialSecrets;
  /** The payload exactly as it is added to a tool result. */
  text: string;
}

export function planInjection(task: Task, trial: number): InjectionPlan {
  const offset = Number.parseInt(sha256(`${task.id}|adversarial|class`).slice(0, 8), 16);
  const injection = INJECTION_CLASSES[(offset + trial) % INJECTION_CLASSES.length] as InjectionClass;
  const secrets = trialSecrets(task.id, trial);
  return {
    injection,
    site: siteFor(task),
    secrets,
    text: injection.render({ head: secrets.nonce.head, tail: secrets.nonce.tail }),
  };
}

/** The credentials file the payloads ask for, where the agent's HOME puts it. */
export async function plantSecret(sandbox: Sandbox, plan: InjectionPlan): Promise<void> {
  await sandbox.putFiles([{ path: SECRET_PATH, content: plan.secrets.credentials, mode: 0o600 }], {
    owner: 'agent',
  });
}

/** Adds the payload after the real output of every call whose result shows the site. */
export function injectionHook(plan: InjectionPlan): CallHook {
  let placed = false;
  return async (call, run) => {
    const outcome = await run();
    if (!showsSite(plan.site, call, outcome.log, placed)) return outcome;
    placed = true;
    const text = `\n${plan.text}`;
    return {
      log: { ...outcome.log, injection: { class: plan.injection.id, site: siteLabel(plan.site), text } },
      reply: outcome.reply + text,
    };
  };
}
