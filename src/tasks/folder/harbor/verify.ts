/**
 * The verifier of a model's trial of a Harbor task, in the trial's own sandbox once the agent's
 * last turn is over and its processes are gone: tests/ copied to /tests (a link into the root-only
 * /harness, see run-image.ts), tests/test.sh run as root in the task's WORKDIR (the workspace)
 * under task.toml's verifier timeout, and the reward read from /logs/verifier. A reward of 1
 * passes; any other is kept as the trial's score; no reward at all (a crash, the timeout) makes the
 * trial an error, as in Harbor. The sandbox has no network, so a task that
 * allows internet is verified without it, and the flag's detail says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FlagResult } from '../../../results/trial.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { InfraError } from '../../../util/errors.js';
import type { HarborTask } from './load.js';
import { readReward, rewardPasses } from './reward.js';

/** The one flag of a Harbor task: its reward, as reports show flags. */
export const REWARD_FLAG = 'reward';

export interface HarborVerdict {
  flags: Record<string, FlagResult>;
  /** The reward, within [0, 1]. */
  score: number;
  passed: boolean;
}

const OUTPUT_CAP = 64 * 1024;

/** `workdir`: the task image's WORKDIR (run-image.ts), where test.sh runs. */
export async function verifyHarborTrial(
  task: HarborTask,
  workdir: string,
  sandbox: Sandbox,
): Promise<HarborVerdict> {
  // Nothing the agent left behind may run next to the verifier.
  await sandbox.killAllProcesses();
  // A reused sandbox keeps /harness between trials: no earlier trial's tests or reward may count.
  await sandbox.exec(['rm', '-rf', '/harness/tests', '/harness/logs'], { user: 'root', cwd: '/' });
  await sandbox.putFiles(
    task.tests.map((rel) => ({
      path: `/harness/tests/${rel}`,
      content: readFileSync(join(task.dir, 'tests', rel)),
      mode: 0o755,
    })),
    { owner: 'root' },
  );
  const timeoutSec = Math.ceil(task.verifier.timeoutSec);
  const r = await sandbox.exec(
    [
      'bash',
      '-c',
      'mkdir -p /harness/logs/verifier /harness/logs/agent && cd "$1" && exec timeout -k 5 "$2" bash /tests/test.sh',
      'harbor',
      workdir,
      String(timeoutSec),
    ],
    {
      user: 'root',
      cwd: '/',
      env: task.verifier.env,
      // The in-container timeout kills the script; this is the backstop.
      timeoutMs: (timeoutSec + 30) * 1000,
      maxOutputBytes: OUTPUT_CAP,
    },
  );
  const files = await sandbox.getFiles([
    '/harness/logs/verifier/reward.txt',
    '/harness/logs/verifier/reward.json',
  ]);
  const reward = readReward(
    files.get('/harness/logs/verifier/reward.txt')?.toString('utf8') ?? null,
    files.get('/harness/logs/verifier/reward.json')?.toString('utf8') ?? null,
  );
  const offline = task.environment.allowInternet
    ? '; run without network, though task.toml allows internet'
    : '';
  // As in Harbor, a verifier that gives no reward is an error of the trial, not a score of 0.
  if (!reward.ok) {
    const why = r.timedOut || r.exitCode === 124 ? `timed out after ${timeoutSec} s` : reward.problem;
    const output = tail(`${r.stdout}${r.stderr}`);
    throw new InfraError(
      `${task.id}: Harbor verifier tests/test.sh: ${why}${output === '' ? '' : ` (${output})`}`,
    );
  }
  const passed = rewardPasses(reward.reward);
  return {
    flags: {
      [REWARD_FLAG]: {
        reached: passed,
        turn: null,
        kind: 'outcome',
        detail: `Harbor verifier tests/test.sh: reward ${reward.reward}${offline}`,
      },
    },
    score: Math.min(1, Math.max(0, reward.reward)),
    passed,
  };
}

function tail(text: string): string {
  const t = text.trim();
  return t.length <= 300 ? t : `...${t.slice(-297)}`;
}
