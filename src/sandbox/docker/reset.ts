/**
 * The container's writable places in their initial state: checked at creation (checkStarted) and
 * restored between trials (wipeSandbox), so the next trial starts from nothing the previous one
 * left: the tmpfs mounts, /dev/shm and /dev/mqueue (shared memory the agent may use), and
 * HARNESS_DIR, the checker's home and the staged copies. Root deletes what the agent made
 * unwritable thanks to DAC_OVERRIDE, and in sticky directories thanks to FOWNER; the mount points
 * get their modes back (the agent owns /workspace and /tmp and may have chmod'ed them).
 *
 * Root in the container (a harness exec, or a daemon one of them left) can also write /dev and
 * /sys/fs/cgroup, two tmpfs the agent can read: hidden tests copied there would reach the next
 * trial. Their listing is taken when the container starts (checkStarted), and each reset removes
 * whatever is not in it and checks the rest is as it was (a device replaced by a file fails the
 * reset: the container is replaced).
 */
import { InfraError } from '../../util/errors.js';
import { TOOLS_DIR, TOOLS_ENV, tool } from '../tools.js';
import { CHECKER_HOME, CHECKS_DIR, HARNESS_DIR, WORKSPACE_DIR } from '../types.js';
import { EXEC_DIR } from './container.js';
import type { RawRunner } from './raw-runner.js';
import { AGENT_UID, CHECKER_UID } from './users.js';

const MODES: [string, string][] = [
  [WORKSPACE_DIR, '0750'],
  ['/tmp', '1777'],
  [HARNESS_DIR, '0700'],
  [EXEC_DIR, '0700'],
  [CHECKS_DIR, '0750'],
  [CHECKER_HOME, '0700'],
];
const WIPED = [
  WORKSPACE_DIR,
  '/tmp',
  HARNESS_DIR,
  EXEC_DIR,
  CHECKS_DIR,
  CHECKER_HOME,
  '/dev/shm',
  '/dev/mqueue',
];

/**
 * Root-writable tmpfs outside the wiped mounts, kept to their listing at start (see above): /dev,
 * and /sys/fs/cgroup where it is a tmpfs (cgroup v1; v2 mounts it read-only).
 */
const KEPT = `kept=/dev
[ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" = tmpfs ] && kept+=' /sys/fs/cgroup'`;
/** Prints that listing: path, type, link target, mode, owner, sorted. */
const LIST_KEPT = `find $kept -xdev -mindepth 1 -printf '%p\\t%y\\t%l\\t%m\\t%U\\n' | LC_ALL=C sort`;

/** Sets the mount points' modes (also at creation: Docker copies the image directory's mode up). */
const RESTORE_MODES = MODES.map(([dir, mode]) => `chmod ${mode} ${dir}`).join('\n');

/**
 * SysV IPC objects outlive their processes; only their owner (or CAP_SYS_ADMIN) may remove them,
 * so `ipcrm` runs as each user, started by root under root's `timeout -s KILL`: their processes
 * are dead by now (reset kills them first), and should one be stopped anyway, it is killed.
 */
const IPCRM_SCRIPT = [AGENT_UID, CHECKER_UID]
  .map(
    (uid) =>
      `timeout -s KILL 10 setpriv --reuid=${uid} --regid=${uid} --clear-groups -- ipcrm --all ||
  { echo "ipcrm as uid ${uid} failed" >&2; exit 1; }`,
  )
  .join('\n');

/**
 * `keep`: workspace-relative names of read-only mounts. Their mount points cannot be removed (and
 * their contents cannot change), so the wipe leaves them and the final check looks past them.
 */
function wipeScript(keep: readonly string[]): string {
  const kept = keep.map((name) => `${WORKSPACE_DIR}/${name}`);
  const spare = kept.map((path) => ` ! -path ${path}`).join('');
  const prune = kept.length === 0 ? '' : `\\( ${kept.map((p) => `-path ${p}`).join(' -o ')} \\) -prune -o `;
  // $1: the listing of the kept places taken at start.
  return `set -u
${IPCRM_SCRIPT}
${KEPT}
for d in ${WIPED.join(' ')}; do
  [ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1${spare} -exec rm -rf -- {} +
done
declare -A known
while IFS=$'\\t' read -r path _; do known[$path]=1; done <<<"$1"
while IFS= read -r -d '' p; do
  [ -n "\${known[$p]:-}" ] || rm -rf -- "$p"
done < <(find $kept -xdev -mindepth 1 -print0)
now=$(${LIST_KEPT})
if [ "$now" != "$1" ]; then
  echo "not as it started: $(diff <(echo "$1") <(echo "$now") | grep '^[<>]' | head -3 | tr '\\n' ' ')" >&2
  exit 1
fi
${RESTORE_MODES}
left=$(find ${WIPED.join(' ')} -mindepth 1 ${prune}-print -quit 2>/dev/null)
if [ -n "$left" ]; then echo "still there after the wipe: $left" >&2; exit 1; fi
`;
}

/**
 * `keep`: the names of the read-only mounts inside /workspace (plain names, checked at creation);
 * `started`: what checkStarted returned.
 */
export async function wipeSandbox(
  run: RawRunner,
  started: string,
  keep: readonly string[] = [],
): Promise<void> {
  const bounded = { maxStdoutBytes: 4096, maxStderrBytes: 4096, deadlineMs: 60_000 };
  const argv = [tool('bash'), '-c', wipeScript(keep), 'wipe', started];
  const r = await run({ argv, user: 'root', env: TOOLS_ENV, ...bounded });
  if (r.exitCode !== 0)
    throw new InfraError(`sandbox reset could not wipe the container: ${r.stderr.toString('utf8').trim()}`);
}

// The container must have what the harness relies on: the tools bundle (sandbox/tools/bundle.sh),
// whether the image carries it or a volume does. The users are numbers the engine sets: the image
// need not name them.
const CHECK_SCRIPT = `set -e
${RESTORE_MODES}
for tool in timeout setpriv tar python3 ipcrm find sort diff; do
  [ -x "${TOOLS_ENV.PATH}/$tool" ] || { echo "missing tool: $tool (no agent-bench tools at ${TOOLS_DIR})" >&2; exit 1; }
done
${KEPT}
${LIST_KEPT}
`;

/**
 * Prepares a freshly started container and checks the image is a sandbox image; returns the
 * listing of its root-writable places outside the wiped mounts, for wipeSandbox.
 */
export async function checkStarted(run: RawRunner): Promise<string> {
  const r = await run({
    argv: [tool('bash'), '-c', CHECK_SCRIPT],
    user: 'root',
    env: TOOLS_ENV,
    maxStdoutBytes: 64 * 1024,
    maxStderrBytes: 4096,
  });
  if (r.exitCode !== 0 || r.stdoutDropped > 0)
    throw new InfraError(`the sandbox image is not usable: ${r.stderr.toString('utf8').trim()}`);
  return r.stdout.toString('utf8').replace(/\n$/, '');
}
