/**
 * `--model oracle` on a Harbor task, as Harbor's oracle runs: solution/ (every file, not only
 * solve.sh) copied to /solution, solve.sh run by bash as root in the image's WORKDIR with
 * task.toml's variables (environment.env, solution.env), under its agent timeout, in the trial's own sandbox. /solution is a link the sandbox layer
 * made into /harness (root-only), so the files are there only for this trial's oracle and no
 * model ever sees them.
 */
import { InfraError } from '../../util/errors.js';
import { tool } from '../tools.js';
import { type ExecResult, HARNESS_DIR, type HarborScripts, type Sandbox } from '../types.js';
import { scriptsTar } from './scripts-tar.js';

const COPY_MS = 60_000;
const OUTPUT_BYTES = 256 * 1024;

export async function runHarborOracle(
  sandbox: Sandbox,
  solution: HarborScripts & { env?: Record<string, string> },
  workdir: string,
): Promise<ExecResult> {
  // The bundle's tar, sh and bash: the task's image need have none (tools.ts).
  const put = await sandbox.exec([tool('tar'), '-x', '-f', '-', '-C', '/', '--no-overwrite-dir'], {
    user: 'root',
    stdin: await scriptsTar(solution, `${HARNESS_DIR}/solution`),
    timeoutMs: COPY_MS,
  });
  if (put.exitCode !== 0)
    throw new InfraError(`copying solution/ into the sandbox failed: ${put.stderr.trim().slice(-300)}`);
  return sandbox.exec(
    [tool('sh'), '-c', `cd "$1" && exec ${tool('bash')} /solution/solve.sh`, 'harbor-oracle', workdir],
    {
      user: 'root',
      // task.toml's environment.env and solution.env, as Harbor gives its oracle.
      ...(solution.env === undefined ? {} : { env: solution.env }),
      timeoutMs: Math.ceil(solution.timeoutSec * 1000),
      maxOutputBytes: OUTPUT_BYTES,
    },
  );
}
