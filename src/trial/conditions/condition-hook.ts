/**
 * The hook that puts a trial's condition at its tool calls, whoever answers them (the sandbox's
 * tools, a dialogue's domain tools): noisy faults, adversarial payloads; none when clean.
 */
import type { RunCondition } from '../../results/condition.js';
import { type InjectionPlan, injectionHook } from '../injection/plan.js';
import type { CallHook } from './call-hook.js';
import { faultHook } from './faults.js';

export function conditionHook(
  condition: RunCondition,
  adversarial: InjectionPlan | null,
  trial: { taskId: string; index: number; signal?: AbortSignal },
): CallHook | undefined {
  if (adversarial !== null) return injectionHook(adversarial);
  if (condition.name !== 'noisy') return undefined;
  return faultHook({
    taskId: trial.taskId,
    trial: trial.index,
    failureRate: condition.failure_rate,
    timeoutMs: condition.fault_timeout_sec * 1000,
    ...(trial.signal === undefined ? {} : { signal: trial.signal }),
  });
}
