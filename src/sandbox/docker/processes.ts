/**
 * Killing processes, always from root: an exec running as the agent (or as the checker, which runs
 * the agent's code) could be stopped by that user's own `kill -STOP -1` loop before it did anything
 * (its `runc init` included), and the harness would wait on it. Root's loop stops every process of
 * the users (so none can fork again), kills them, and looks again until none is left: a fork bomb
 * under the pids limit cannot outrun it, since a stopped process forks no more. Then, for
 * killAllProcesses, root kills the rest (daemons a harness exec left as root, tracers), sparing only
 * init, the keeper and the exec relay that runs the kill (its parent; relay.ts): the relay is the
 * harness's own, root's and out of the agent's reach, and starting a new one after every kill cost
 * an engine exec and a Python start-up twice a trial.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { TOOLS_ENV, tool } from '../tools.js';
import { ENGINE_CALL_MS, withDeadline } from './deadline.js';
import { ExecStartFailed, type RawRunner } from './raw-runner.js';
import { AGENT_UID, CHECKER_UID } from './users.js';

const BOUNDED = { maxStdoutBytes: 4096, maxStderrBytes: 4096, deadlineMs: 40_000 };

/**
 * $@: the uids. A process is theirs if its real, effective or saved uid is one of them: what lets
 * them signal it (the file tools' root threads, whose fsuid only is the agent's, are not). Builtins
 * only, and no sleep between rounds, so a full process table does not stop it; zombies are dead
 * already (init reaps them once their parents are gone). Gives up after 30 s.
 */
const KILL_USERS_SCRIPT = `uids=" $* " me=$$
start=\${EPOCHREALTIME%.*}
while :; do
  left=()
  for p in /proc/[0-9]*; do
    pid=\${p#/proc/}
    [ "$pid" = "$me" ] && continue
    state= mine=
    # Read whole, at once: a line-by-line read seeks back after every line, and the kernel writes
    # the file anew at each read, so a state changing in between ("R (running)" to "t (tracing
    # stop)") shifts the lines under it and the Uid line is missed.
    mapfile -t st <"$p/status" 2>/dev/null || continue
    for line in "\${st[@]}"; do
      case $line in
        State:*) f=(\${line#State:}) state=\${f[0]} ;;
        Uid:*)
          f=(\${line#Uid:})
          case "$uids" in *" \${f[0]} "* | *" \${f[1]} "* | *" \${f[2]} "*) mine=1 ;; esac
          break
          ;;
      esac
    done
    [ -n "$mine" ] || continue
    case $state in Z | X) continue ;; esac
    kill -STOP "$pid" 2>/dev/null && left+=("$pid")
  done
  [ \${#left[@]} -eq 0 ] && exit 0
  kill -KILL "\${left[@]}" 2>/dev/null
  if [ $((\${EPOCHREALTIME%.*} - start)) -ge 30 ]; then
    echo "processes survive: \${left[*]}" >&2
    exit 1
  fi
done
`;

// Builtins only while it scans, so a full process table does not stop it. The keeper is init's
// oldest child: it started with the container, before any exec. Zombies are dead already; init
// reaps them once their parents are gone. $PPID is the relay when the kill came through it; an
// engine exec's parent is outside the container's pid namespace (0), so nothing else is spared.
const KILL_ALL_SCRIPT = `me=$$ relay=$PPID keeper= since=
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
    case $pid in 1 | "$me" | "$relay" | "$keeper") continue ;; esac
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
  await runKill(container, run, pidsLimit, {
    argv: [tool('bash'), '-c', KILL_USERS_SCRIPT, 'kill-users', String(AGENT_UID)],
    what: `the processes of uid ${AGENT_UID}`,
  });
}

/**
 * Every process but init and the keeper, whoever runs it (this exec excepted): the users' processes
 * first (stopped, then killed), then the rest, in one exec — it runs three times a trial.
 */
const KILL_EVERYONE_SCRIPT = `kill_users() (
${KILL_USERS_SCRIPT}
)
kill_users "$@" || exit 1
${KILL_ALL_SCRIPT}`;

export async function killAllProcesses(
  container: Docker.Container,
  run: RawRunner,
  pidsLimit: number,
): Promise<void> {
  await runKill(container, run, pidsLimit, {
    argv: [tool('bash'), '-c', KILL_EVERYONE_SCRIPT, 'kill-all', String(AGENT_UID), String(CHECKER_UID)],
    what: "the sandbox's processes",
  });
}

async function runKill(
  container: Docker.Container,
  run: RawRunner,
  pidsLimit: number,
  kill: { argv: string[]; what: string },
): Promise<void> {
  const req = { argv: kill.argv, user: 'root' as const, env: TOOLS_ENV, ...BOUNDED };
  let r: Awaited<ReturnType<RawRunner>>;
  try {
    r = await run(req);
  } catch (err) {
    if (!(err instanceof ExecStartFailed)) throw err;
    // Every pid is taken (by processes that escaped their command's process group): the engine
    // cannot start an exec. Lend the container a few pids for the kill, then take them back.
    r = await withHeadroom(container, pidsLimit, () => run(req));
  }
  if (r.exitCode !== 0)
    throw new InfraError(`could not kill ${kill.what}: ${r.stderr.toString('utf8').trim()}`);
}

async function withHeadroom<T>(container: Docker.Container, limit: number, fn: () => Promise<T>): Promise<T> {
  const update = (PidsLimit: number): Promise<unknown> =>
    withDeadline(
      (abortSignal) => container.update({ PidsLimit, abortSignal }),
      ENGINE_CALL_MS,
      'updating the pids limit',
    );
  await update(limit + 64);
  try {
    return await fn();
  } finally {
    await update(limit).catch(() => {});
  }
}
