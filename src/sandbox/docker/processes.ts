/**
 * Killing processes. A user's processes are killed *by that user* (`kill -9 -1`): the kernel
 * signals every process the user may signal in one pass under the tasklist lock, which a fork bomb
 * cannot outrun, and root's processes (init, the keeper, the harness) are out of its reach. Root
 * then checks none is left, and for killAllProcesses kills the rest (daemons a harness exec left
 * as root, tracers) itself, sparing only init and the keeper.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { ExecStartFailed, type RawRunner } from './raw-runner.js';
import { AGENT_UID } from './users.js';

// A lone builtin: bash runs it without forking, so it works even when no pid is free.
const USER_KILL = ['/bin/bash', '-c', 'kill -KILL -1'];
const BOUNDED = { maxStdoutBytes: 4096, maxStderrBytes: 4096, deadlineMs: 30_000 };

const VERIFY_SCRIPT = `for ((i = 0; i < 100; i++)); do
  pgrep -u ${AGENT_UID} >/dev/null || exit 0
  pkill -KILL -u ${AGENT_UID}
  sleep 0.05
done
echo "agent processes survive: $(pgrep -u ${AGENT_UID} -d ' ' -l)" >&2
exit 1
`;

// Builtins only while it scans, so a full process table does not stop it. The keeper is init's
// oldest child: it started with the container, before any exec. Zombies are dead already; init
// reaps them once their parents are gone.
const KILL_ALL_SCRIPT = `me=$$ keeper= since=
for p in /proc/[0-9]*; do
  read -r st <"$p/stat" 2>/dev/null || continue
  f=(\${st##*) })
  if [ "\${f[1]}" = 1 ] && [ -O "$p" ] && { [ -z "$since" ] || [ "\${f[19]}" -lt "$since" ]; }; then
    keeper=\${p#/proc/} since=\${f[19]}
  fi
done
for ((round = 0; round < 100; round++)); do
  left=()
  for p in /proc/[0-9]*; do
    pid=\${p#/proc/}
    case $pid in 1 | "$me" | "$keeper") continue ;; esac
    read -r st <"$p/stat" 2>/dev/null || continue
    f=(\${st##*) })
    case \${f[0]} in Z | X) continue ;; esac
    [ "\${f[1]}" = "$me" ] && continue
    kill -KILL "$pid" 2>/dev/null && left+=("$pid")
  done
  [ \${#left[@]} -eq 0 ] && exit 0
  sleep 0.05
done
echo "processes survive: \${left[*]}" >&2
exit 1
`;

export async function killAgentProcesses(
  container: Docker.Container,
  run: RawRunner,
  pidsLimit: number,
): Promise<void> {
  await killAsUser(container, run, pidsLimit, 'agent');
  const r = await run({ argv: ['/bin/bash', '-c', VERIFY_SCRIPT], user: 'root', ...BOUNDED });
  if (r.exitCode !== 0)
    throw new InfraError(`could not kill the agent's processes: ${r.stderr.toString('utf8').trim()}`);
}

/** Every process but init and the keeper, whoever runs it (this exec excepted). */
export async function killAllProcesses(
  container: Docker.Container,
  run: RawRunner,
  pidsLimit: number,
): Promise<void> {
  await killAsUser(container, run, pidsLimit, 'agent');
  await killAsUser(container, run, pidsLimit, 'checker');
  const r = await run({ argv: ['/bin/bash', '-c', KILL_ALL_SCRIPT], user: 'root', ...BOUNDED });
  if (r.exitCode !== 0)
    throw new InfraError(`could not kill the sandbox's processes: ${r.stderr.toString('utf8').trim()}`);
}

async function killAsUser(
  container: Docker.Container,
  run: RawRunner,
  pidsLimit: number,
  user: 'agent' | 'checker',
): Promise<void> {
  try {
    await run({ argv: USER_KILL, user, ...BOUNDED });
  } catch (err) {
    if (!(err instanceof ExecStartFailed)) throw err;
    // Every pid is taken (by processes that escaped their command's process group): the engine
    // cannot start an exec. Lend the container a few pids for the kill, then take them back.
    await withHeadroom(container, pidsLimit, () => run({ argv: USER_KILL, user, ...BOUNDED }));
  }
}

async function withHeadroom<T>(container: Docker.Container, limit: number, fn: () => Promise<T>): Promise<T> {
  await container.update({ PidsLimit: limit + 64 });
  try {
    return await fn();
  } finally {
    await container.update({ PidsLimit: limit }).catch(() => {});
  }
}
