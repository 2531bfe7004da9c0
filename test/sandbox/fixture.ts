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
