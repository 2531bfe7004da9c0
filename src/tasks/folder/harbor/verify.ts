/**
 * A model's trial of a Harbor task judged by its verifier's run (the sandbox's HarborEnvironment
 * runs it once the agent's last turn is over): a reward of 1 passes; any other is kept as the
 * trial's score; no reward at all (a crash, the timeout) makes the trial an error, as in Harbor.
 * The sandbox has no network, so a task that allows internet is verified without it, and the
 * flag's detail says so.
 */
import type { FlagResult } from '../../../results/trial.js';
import type { HarborVerifierRun } from '../../../sandbox/types.js';
import { InfraError } from '../../../util/errors.js';
import type { HarborTask } from './load.js';

/** The one flag of a Harbor task: its reward, as reports show flags. */
export const REWARD_FLAG = 'reward';

export interface HarborVerdict {
  flags: Record<string, FlagResult>;
  /** The reward, within [0, 1]. */
  score: number;
  passed: boolean;
}

/** Harbor's pass: a reward of exactly 1. */
export function rewardPasses(reward: number): boolean {
  return reward === 1;
}

export function harborVerdict(task: HarborTask, run: HarborVerifierRun): HarborVerdict {
  // As in Harbor, a verifier that gives no reward is an error of the trial, not a score of 0.
  if (!run.reward.ok) {
    const why = run.timedOut
      ? `timed out after ${Math.ceil(task.verifier.timeoutSec)} s`
      : run.reward.problem;
    const output = tail(run.output);
    throw new InfraError(
      `${task.id}: Harbor verifier tests/test.sh: ${why}${output === '' ? '' : ` (${output})`}`,
    );
  }
  const offline = task.environment.allowInternet
    ? '; run without network, though task.toml allows internet'
    : '';
  const passed = rewardPasses(run.reward.reward);
  return {
    flags: {
      [REWARD_FLAG]: {
        reached: passed,
        turn: null,
        kind: 'outcome',
        detail: `Harbor verifier tests/test.sh: reward ${run.reward.reward}${offline}`,
      },
    },
    score: Math.min(1, Math.max(0, run.reward.reward)),
    passed,
  };
}

function tail(text: string): string {
  const t = text.trim();
  return t.length <= 300 ? t : `...${t.slice(-297)}`;
}
