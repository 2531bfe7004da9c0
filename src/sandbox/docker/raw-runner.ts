/** rawExec with the sandbox's rules: a default deadline, taint on a missed deadline, clear errors. */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { AGENT_UID, containerState } from './container.js';
import type { RawRunner } from './files.js';
import { ContainerGoneError, type RawExecResult, rawExec } from './raw-exec.js';
import { RESTORE_MODES } from './reset.js';

const DEFAULT_DEADLINE_MS = 60_000;

/** An exec the engine accepted but could not start (e.g. no pid free in the container). */
export class ExecStartFailed extends InfraError {}

export async function runRaw(
  container: Docker.Container,
  req: Parameters<RawRunner>[0],
  taint: () => void,
): Promise<RawExecResult> {
  let r: RawExecResult;
  try {
    r = await rawExec(container, { ...req, deadlineMs: req.deadlineMs ?? DEFAULT_DEADLINE_MS });
  } catch (err) {
    if (err instanceof InfraError) taint();
    throw err;
  }
  if (r.deadlineHit) {
    taint();
    throw new InfraError(
      `the sandbox did not finish \`${req.argv[0]}\` within ${Math.round((req.deadlineMs ?? DEFAULT_DEADLINE_MS) / 1000)} s`,
    );
  }
  // The engine reports a failed start in the output stream, not as an HTTP error.
  const said = r.stdout.subarray(0, 400).toString('utf8');
  if (said.startsWith('OCI runtime exec failed') || said.includes('exec failed:')) {
    const state = await containerState(container);
    taint();
    if (!state.running)
      throw new ContainerGoneError(
        `sandbox container ${container.id.slice(0, 12)} is not running (${state.detail})`,
      );
    throw new ExecStartFailed(`the sandbox could not start \`${req.argv[0]}\`: ${said.trim()}`);
  }
  if (r.exitCode === null || r.exitCode >= 128) {
    const state = await containerState(container);
    if (!state.running) {
      taint();
      throw new ContainerGoneError(
        `sandbox container ${container.id.slice(0, 12)} stopped (${state.detail})`,
      );
    }
  }
  return r;
}

// The image must be what the sandbox relies on: the agent user and the tools the harness runs.
const CHECK_SCRIPT = `set -e
${RESTORE_MODES}
[ "$(id -u agent)" = ${AGENT_UID} ] || { echo "no user agent with uid ${AGENT_UID}" >&2; exit 1; }
for tool in timeout setpriv tar python3 pgrep pkill ipcrm base64 dd stat mktemp; do
  command -v "$tool" >/dev/null || { echo "missing tool: $tool" >&2; exit 1; }
done
`;

/** Prepares a freshly started container and checks the image is a sandbox image. */
export async function checkStarted(run: RawRunner): Promise<void> {
  const r = await run({
    argv: ['/bin/bash', '-c', CHECK_SCRIPT],
    user: 'root',
    maxStdoutBytes: 4096,
    maxStderrBytes: 4096,
  });
  if (r.exitCode !== 0)
    throw new InfraError(`the sandbox image is not usable: ${r.stderr.toString('utf8').trim()}`);
}
