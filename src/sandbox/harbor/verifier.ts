/**
 * The verifier of a model's trial of a Harbor task, in the trial's own sandbox once the agent's
 * last turn is over: every process killed first (nothing the agent left may run next to it), tests/
 * copied to /tests (a link into the root-only /harness, see run-image.ts), tests/test.sh run as
 * root in the task's WORKDIR (the workspace) under task.toml's verifier timeout, and the reward
 * read from /logs/verifier. The sandbox has no network, whatever task.toml allows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarborEnvironmentSpec, HarborVerifierRun, Sandbox } from '../types.js';
import { readReward } from './reward.js';

const OUTPUT_CAP = 64 * 1024;

/** `workdir`: the task image's WORKDIR as the engine built it (run-image.ts), where test.sh runs. */
export async function runHarborVerifier(
  sandbox: Sandbox,
  verifier: HarborEnvironmentSpec['verifier'],
  workdir: string,
): Promise<HarborVerifierRun> {
  await sandbox.killAllProcesses();
  // A reused sandbox keeps /harness between trials: no earlier trial's tests or reward may count.
  await sandbox.exec(['rm', '-rf', '/harness/tests', '/harness/logs'], { user: 'root', cwd: '/' });
  await sandbox.putFiles(
    verifier.files.map((rel) => ({
      path: `/harness/tests/${rel}`,
      content: readFileSync(join(verifier.dir, rel)),
      mode: 0o755,
    })),
    { owner: 'root' },
  );
  const timeoutSec = Math.ceil(verifier.timeoutSec);
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
      env: verifier.env,
      // The in-container timeout kills the script; this is the backstop.
      timeoutMs: (timeoutSec + 30) * 1000,
      maxOutputBytes: OUTPUT_CAP,
    },
  );
  const files = await sandbox.getFiles([
    '/harness/logs/verifier/reward.txt',
    '/harness/logs/verifier/reward.json',
  ]);
  return {
    reward: readReward(
      files.get('/harness/logs/verifier/reward.txt')?.toString('utf8') ?? null,
      files.get('/harness/logs/verifier/reward.json')?.toString('utf8') ?? null,
    ),
    exitCode: r.exitCode,
    // timeout(1) exits 124 when it kills the script.
    timedOut: r.timedOut || r.exitCode === 124,
    output: outputTail(`${r.stdout}${r.stderr}`),
  };
}

/** The last 400 characters of a verifier's output, trimmed. */
export function outputTail(text: string): string {
  const t = text.trim();
  return t.length <= 400 ? t : `...${t.slice(-397)}`;
}
