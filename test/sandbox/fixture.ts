/** Shared set-up for the sandbox integration tests: the real image, a sandbox, root-side probes. */
import {
  createDockerSandbox,
  type DockerSandbox,
  type DockerSandboxOptions,
  ensureImage,
} from '../../src/sandbox/index.js';
import type { ExecResult } from '../../src/sandbox/types.js';

/** Builds the image on first use (debootstrap on an offline machine: minutes, once). */
export const IMAGE_TIMEOUT_MS = 15 * 60_000;

let tag: Promise<string> | null = null;

export function sandboxImage(): Promise<string> {
  tag ??= ensureImage({ onProgress: (line) => void process.stderr.write(`[image] ${line}\n`) }).then(
    (i) => i.tag,
  );
  return tag;
}

export async function openSandbox(options: Partial<DockerSandboxOptions> = {}): Promise<DockerSandbox> {
  return createDockerSandbox({
    image: await sandboxImage(),
    labels: { run: 'vitest', task: 'sandbox-tests' },
    ...options,
  });
}

/** A root-side look at the container, independent of what the agent's tools say. */
export function asRoot(sandbox: DockerSandbox, script: string): Promise<ExecResult> {
  return sandbox.exec(['bash', '-c', script], { user: 'root', timeoutMs: 30_000 });
}

/** Live (non-zombie) processes of the agent user, one "pid command" per line; '' when none. */
export async function agentProcesses(sandbox: DockerSandbox): Promise<string> {
  const r = await asRoot(sandbox, "ps -u 1000 -o pid=,stat=,args= | awk '$2 !~ /^Z/' || true");
  return r.stdout.trim();
}

/** A script run by the harness's checker user (uid 1001). */
export function asChecker(sandbox: DockerSandbox, script: string, cwd = '/'): Promise<ExecResult> {
  return sandbox.exec(['bash', '-c', script], { user: 'checker', cwd, timeoutMs: 30_000 });
}

/** Live processes of any user but init and the keeper, "pid ppid stat user args" per line; '' when none. */
export async function otherProcesses(sandbox: DockerSandbox): Promise<string> {
  // This probe's own processes are left out: its bash, that bash's ancestors (the exec wrapper,
  // timeout) and children (ps, awk), as are zombies.
  const r = await asRoot(
    sandbox,
    `mine=" $$ " p=$$
while p=$(ps -o ppid= -p "$p" | tr -d ' ') && [ "$p" -gt 0 ]; do mine+="$p "; done
keeper=$(ps -o pid= --ppid 1 --sort=start_time | head -1 | tr -d ' ')
ps -eo pid=,ppid=,stat=,user=,args= |
  awk -v mine="$mine" -v k="$keeper" '$1 != 1 && $1 != k && $3 !~ /^Z/ &&
    index(mine, " " $1 " ") == 0 && index(mine, " " $2 " ") == 0'`,
  );
  return r.stdout.trim();
}
