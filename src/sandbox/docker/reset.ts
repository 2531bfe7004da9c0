/**
 * Wipes every place the agent can write, so the next trial starts from nothing the previous one
 * left: the tmpfs mounts, /dev/shm and /dev/mqueue (shared memory the agent may use), and
 * HARNESS_DIR. Root deletes what the agent made unwritable thanks to DAC_OVERRIDE, and in sticky
 * directories thanks to FOWNER; the mount points get their modes back (the agent owns /workspace
 * and /tmp and may have chmod'ed them).
 */
import { InfraError } from '../../util/errors.js';
import { HARNESS_DIR, WORKSPACE_DIR } from '../types.js';
import { EXEC_DIR } from './container.js';
import type { RawRunner } from './files.js';

const MODES: [string, string][] = [
  [WORKSPACE_DIR, '0755'],
  ['/tmp', '1777'],
  [HARNESS_DIR, '0700'],
  [EXEC_DIR, '0700'],
];
const WIPED = [WORKSPACE_DIR, '/tmp', HARNESS_DIR, EXEC_DIR, '/dev/shm', '/dev/mqueue'];

/** Sets the mount points' modes (also at creation: Docker copies the image directory's mode up). */
export const RESTORE_MODES = MODES.map(([dir, mode]) => `chmod ${mode} ${dir}`).join('\n');

const WIPE_SCRIPT = `set -u
for d in ${WIPED.join(' ')}; do
  [ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1 -exec rm -rf -- {} +
done
${RESTORE_MODES}
left=$(find ${WIPED.join(' ')} -mindepth 1 -print -quit 2>/dev/null)
if [ -n "$left" ]; then echo "still there after the wipe: $left" >&2; exit 1; fi
`;

export async function wipeSandbox(run: RawRunner): Promise<void> {
  const bounded = { maxStdoutBytes: 4096, maxStderrBytes: 4096, deadlineMs: 60_000 };
  // SysV IPC objects outlive their processes; only their owner (or CAP_SYS_ADMIN) may remove them.
  await run({ argv: ['ipcrm', '--all'], user: 'agent', ...bounded });
  const r = await run({ argv: ['/bin/bash', '-c', WIPE_SCRIPT], user: 'root', ...bounded });
  if (r.exitCode !== 0)
    throw new InfraError(`sandbox reset could not wipe the container: ${r.stderr.toString('utf8').trim()}`);
}
