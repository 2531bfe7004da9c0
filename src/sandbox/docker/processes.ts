/**
 * Kills every process of the agent user. The kill is sent *by* the agent user (`kill -9 -1`):
 * the kernel signals every process that user may signal in one pass under the tasklist lock,
 * which a fork bomb cannot outrun, and root's processes (init, the keeper, the harness) are out
 * of its reach. A root exec then checks none is left (and sweeps with pkill, which needs KILL).
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { AGENT_UID } from './container.js';
import { ExecStartFailed, type RawRunner } from './raw-runner.js';

// A lone builtin: bash runs it without forking, so it works even when no pid is free.
const AGENT_KILL = ['/bin/bash', '-c', 'kill -KILL -1'];

const VERIFY_SCRIPT = `for ((i = 0; i < 100; i++)); do
  pgrep -u ${AGENT_UID} >/dev/null || exit 0
  pkill -KILL -u ${AGENT_UID}
  sleep 0.05
done
echo "agent processes survive: $(pgrep -u ${AGENT_UID} -d ' ' -l)" >&2
exit 1
`;

export async function killAgentProcesses(
  container: Docker.Container,
  run: RawRunner,
  pidsLimit: number,
): Promise<void> {
  const bounded = { maxStdoutBytes: 4096, maxStderrBytes: 4096, deadlineMs: 30_000 };
  try {
    await run({ argv: AGENT_KILL, user: 'agent', ...bounded });
  } catch (err) {
    if (!(err instanceof ExecStartFailed)) throw err;
    // Every pid is taken (by processes that escaped their command's process group): the engine
    // cannot start an exec. Lend the container a few pids for the kill, then take them back.
    await withHeadroom(container, pidsLimit, () => run({ argv: AGENT_KILL, user: 'agent', ...bounded }));
  }
  const r = await run({ argv: ['/bin/bash', '-c', VERIFY_SCRIPT], user: 'root', ...bounded });
  if (r.exitCode !== 0)
    throw new InfraError(`could not kill the agent's processes: ${r.stderr.toString('utf8').trim()}`);
}

async function withHeadroom<T>(container: Docker.Container, limit: number, fn: () => Promise<T>): Promise<T> {
  await container.update({ PidsLimit: limit + 64 });
  try {
    return await fn();
  } finally {
    await container.update({ PidsLimit: limit }).catch(() => {});
  }
}
