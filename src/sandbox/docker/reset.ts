/**
 * The container's writable places in their initial state: checked at creation (checkStarted) and
 * restored between trials (wipeSandbox), so the next trial starts from nothing the previous one
 * left: the tmpfs mounts, /dev/shm and /dev/mqueue (shared memory the agent may use), and
 * HARNESS_DIR, the checker's home and the staged copies. Root deletes what the agent made
 * unwritable thanks to DAC_OVERRIDE, and in sticky directories thanks to FOWNER; the mount points
 * get their modes back (the agent owns /workspace and /tmp and may have chmod'ed them).
 */
import { InfraError } from '../../util/errors.js';
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

/** Sets the mount points' modes (also at creation: Docker copies the image directory's mode up). */
const RESTORE_MODES = MODES.map(([dir, mode]) => `chmod ${mode} ${dir}`).join('\n');

/**
 * `keep`: workspace-relative names of read-only mounts. Their mount points cannot be removed (and
 * their contents cannot change), so the wipe leaves them and the final check looks past them.
 */
function wipeScript(keep: readonly string[]): string {
  const kept = keep.map((name) => `${WORKSPACE_DIR}/${name}`);
  const spare = kept.map((path) => ` ! -path ${path}`).join('');
  const prune = kept.length === 0 ? '' : `\\( ${kept.map((p) => `-path ${p}`).join(' -o ')} \\) -prune -o `;
  return `set -u
for d in ${WIPED.join(' ')}; do
  [ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1${spare} -exec rm -rf -- {} +
done
${RESTORE_MODES}
left=$(find ${WIPED.join(' ')} -mindepth 1 ${prune}-print -quit 2>/dev/null)
if [ -n "$left" ]; then echo "still there after the wipe: $left" >&2; exit 1; fi
`;
}

/** `keep`: the names of the read-only mounts inside /workspace (plain names, checked at creation). */
export async function wipeSandbox(run: RawRunner, keep: readonly string[] = []): Promise<void> {
  const bounded = { maxStdoutBytes: 4096, maxStderrBytes: 4096, deadlineMs: 60_000 };
  // SysV IPC objects outlive their processes; only their owner (or CAP_SYS_ADMIN) may remove them.
  await run({ argv: ['ipcrm', '--all'], user: 'agent', ...bounded });
  await run({ argv: ['ipcrm', '--all'], user: 'checker', ...bounded });
  const r = await run({ argv: ['/bin/bash', '-c', wipeScript(keep)], user: 'root', ...bounded });
  if (r.exitCode !== 0)
    throw new InfraError(`sandbox reset could not wipe the container: ${r.stderr.toString('utf8').trim()}`);
}

// The image must be what the sandbox relies on: its users and the tools the harness runs.
const CHECK_SCRIPT = `set -e
${RESTORE_MODES}
[ "$(id -u agent)" = ${AGENT_UID} ] || { echo "no user agent with uid ${AGENT_UID}" >&2; exit 1; }
[ "$(id -u checker)" = ${CHECKER_UID} ] || { echo "no user checker with uid ${CHECKER_UID}" >&2; exit 1; }
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
