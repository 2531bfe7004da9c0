/**
 * A trial as Harbor keeps one in its job folder, beside the trajectory: the verifier's reward
 * (`verifier/reward.txt`) and a small `result.json` shaped like Harbor's trial result where that
 * is cheap (task and trial names, agent info, token counts, the verifier's rewards, an exception
 * for a trial that was not measured, start and end). Harbor's own config, ids and per-phase
 * timings are not in a results file and are left out; agent-bench's verdict is under `agent_bench`.
 */
import type { ResultFile } from '../results/result-file.js';
import type { TrialRecord } from '../results/trial.js';

/**
 * A Harbor task's trial has this one flag, its verifier's reward (src/catalogue/harbor/verify.ts
 * REWARD_FLAG; reports read results only, so the name is repeated here), and its score is the reward.
 */
const HARBOR_REWARD_FLAG = 'reward';

/**
 * What Harbor's verifier would have written: the Harbor reward for a Harbor task's trial, else 1
 * for a pass and 0 for anything else; null for a trial that was not measured (an infrastructure
 * failure is never the model's reward of 0).
 */
export function trialReward(trial: TrialRecord): number | null {
  if (trial.status === 'error') return null;
  const ids = Object.keys(trial.flags);
  if (ids.length === 1 && ids[0] === HARBOR_REWARD_FLAG) return trial.score;
  return trial.passed ? 1 : 0;
}

export interface HarborTrialResult {
  task_name: string;
  trial_name: string;
  task_checksum: string;
  source: string;
  agent_info: { name: string; version: string; model_info: { name: string; provider: string } };
  agent_result: {
    n_input_tokens: number;
    n_output_tokens: number;
    n_cache_tokens: null;
    cost_usd: null;
    metadata: { turns: number; end_reason: string };
  };
  verifier_result: { rewards: { reward: number } } | null;
  exception_info: {
    exception_type: string;
    exception_message: string;
    exception_traceback: string;
    occurred_at: string;
  } | null;
  started_at: string;
  finished_at: string;
  agent_bench: {
    run_id: string;
    task_version: string;
    /** From 1, as the CLI numbers trials. */
    trial: number;
    status: TrialRecord['status'];
    passed: boolean;
    score: number;
    flags: Record<string, boolean>;
    tamper_detected: boolean;
    failure_reason: string | null;
  };
}

export function harborTrialResult(
  result: ResultFile,
  trial: TrialRecord,
  trialName: string,
): HarborTrialResult {
  const reward = trialReward(trial);
  // The trial's agent time and its harness time (setup, snapshots, checks) together.
  const finished = new Date(
    Date.parse(trial.started_at) + Math.round((trial.elapsed_sec + trial.harness_sec) * 1000),
  ).toISOString();
  return {
    task_name: result.task_id,
    trial_name: trialName,
    task_checksum: result.task_version,
    source: 'agent-bench',
    agent_info: {
      name: 'agent-bench',
      version: result.environment.harness_version,
      model_info: { name: result.model, provider: result.environment.server?.kind ?? 'openai-compatible' },
    },
    agent_result: {
      n_input_tokens: trial.usage.prompt_tokens,
      n_output_tokens: trial.usage.completion_tokens,
      n_cache_tokens: null,
      cost_usd: null,
      metadata: { turns: trial.turns, end_reason: trial.end_reason },
    },
    verifier_result: reward === null ? null : { rewards: { reward } },
    exception_info:
      trial.status === 'error'
        ? {
            exception_type:
              trial.error?.kind === 'harness' || trial.error === undefined
                ? 'HarnessError'
                : 'ModelServerError',
            exception_message: trial.failure_reason ?? 'not measured',
            exception_traceback: '',
            occurred_at: finished,
          }
        : null,
    started_at: trial.started_at,
    finished_at: finished,
    agent_bench: {
      run_id: result.run_id,
      task_version: result.task_version,
      trial: trial.index + 1,
      status: trial.status,
      passed: trial.passed,
      score: trial.score,
      flags: Object.fromEntries(Object.entries(trial.flags).map(([id, f]) => [id, f.reached])),
      tamper_detected: trial.tamper_detected,
      failure_reason: trial.failure_reason,
    },
  };
}
