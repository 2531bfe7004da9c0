/**
 * A model's trial of a Harbor task judged by its verifier's run (the sandbox's HarborEnvironment
 * runs it once the agent's last turn is over): a reward of 1 passes; any other is kept as the
 * trial's score. No reward at all is a failed trial of the model, unlike Harbor (which makes it an
 * error): test.sh runs on the files the agent left, and `validate` proves it gives a reward on the
 * oracle's, so a verifier that runs out of time (a FIFO where it reads, a test that sleeps) or
 * writes nothing is something the agent could have caused (src/agent/attribution.ts says why that
 * matters). A reward the verifier refused as forged fails the same way. The sandbox has no
 * network, so a task that allows internet is verified without it, and the flag's detail says so.
 */
import type { AgentFault, FlagResult, HarborVerifierRecord } from '../../results/trial.js';
import { offlineSignatures } from '../../sandbox/offline-signatures.js';
import type { HarborReward, HarborVerifierRun } from '../../sandbox/types.js';
import type { HarborTask } from './load.js';

/** The one flag of a Harbor task: its reward, as reports show flags. */
export const REWARD_FLAG = 'reward';

export interface HarborVerdict {
  flags: Record<string, FlagResult>;
  /** The reward, within [0, 1]. */
  score: number;
  passed: boolean;
  /** Set when the verifier gave no trustworthy reward: the trial fails with this reason. */
  fault?: AgentFault;
  /** reward.json's named metrics, every one, when it wrote them. */
  rewards?: Record<string, number>;
  /** What test.sh ended with and printed, kept in the trial record. */
  verifier: HarborVerifierRecord;
}

/** A reward as a detail says it: `0.5 (the mean of correctness 1, performance 0: ...)`, with the metrics it came from. */
function rewardText(r: Extract<HarborReward, { ok: true }>): string {
  const named = Object.entries(r.metrics).map(([k, v]) => `${k} ${v}`);
  if (r.mean === true)
    return `${r.reward} (the mean of ${named.join(', ')}: reward.json names no reward metric and Harbor has no key for a primary one)`;
  return named.length > 1 ? `${r.reward} (reward.json: ${named.join(', ')})` : String(r.reward);
}

/** Harbor's pass: a reward of exactly 1. */
export function rewardPasses(reward: number): boolean {
  return reward === 1;
}

export function harborVerdict(task: HarborTask, run: HarborVerifierRun): HarborVerdict {
  const verifier = { exit_code: run.exitCode, output: run.output };
  const fault = faultOf(task, run);
  if (fault !== null || !run.reward.ok) {
    const f = fault ?? { kind: 'sabotaged_checks', detail: 'Harbor verifier tests/test.sh: no reward' };
    return {
      flags: { [REWARD_FLAG]: { reached: false, turn: null, kind: 'outcome', detail: f.detail } },
      score: 0,
      passed: false,
      fault: f,
      verifier,
    };
  }
  const offline = task.environment.allowInternet
    ? '; run without network, though task.toml allows internet'
    : '';
  const passed = rewardPasses(run.reward.reward);
  const signs = passed ? [] : offlineSignatures(run.output);
  const cause = signs.length === 0 ? '' : ` (${signs.join('; ')})`;
  return {
    flags: {
      [REWARD_FLAG]: {
        reached: passed,
        turn: null,
        kind: 'outcome',
        detail: `Harbor verifier tests/test.sh: reward ${rewardText(run.reward)}${offline}${cause}`,
      },
    },
    score: Math.min(1, Math.max(0, run.reward.reward)),
    passed,
    ...(Object.keys(run.reward.metrics).length === 0 ? {} : { rewards: run.reward.metrics }),
    verifier,
  };
}

/** Why the verifier's run gives no reward the trial may keep, or null when it gives one. */
function faultOf(task: HarborTask, run: HarborVerifierRun): AgentFault | null {
  const output = tail(run.output);
  const said = (why: string): string =>
    `Harbor verifier tests/test.sh: ${why}${output === '' ? '' : ` (${output})`}`;
  if (run.tampered !== null)
    return { kind: 'sabotaged_checks', detail: said(`reward refused: ${run.tampered}`) };
  if (run.timedOut)
    return {
      kind: 'check_timeout',
      detail: said(`timed out after ${Math.ceil(task.verifier.timeoutSec)} s`),
    };
  if (!run.reward.ok) return { kind: 'sabotaged_checks', detail: said(`no reward: ${run.reward.problem}`) };
  return null;
}

function tail(text: string): string {
  const t = text.trim();
  return t.length <= 300 ? t : `...${t.slice(-297)}`;
}
