/**
 * The fresh container a model trial's verifier runs in: the trial's sandbox image, the sandbox's
 * hardening (containerOptions: no network, read-only image, no capabilities but the harness's,
 * no new privileges) with the agent's sandbox's own limits and tmpfs sizes, its labels (so sweeps
 * find a container a crash left behind) plus one of its own. Its keeper, `sleep infinity`, is pid 1
 * (no init): the supervisor's kill(-1) spares pid 1 and nothing else, and processes in the
 * container cannot signal their pid-1 keeper. Every engine call has a deadline; removal is quiet.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { containerOptions } from '../docker/container.js';
import { ENGINE_CALL_MS, withDeadline } from '../docker/deadline.js';
import { engineError } from '../docker/engine.js';
import { LABEL } from '../docker/labels.js';
import { type RawExecRequest, type RawExecResult, rawExec } from '../docker/raw-exec.js';
import { TOOLS_ENV, tool } from '../tools.js';
import { HARNESS_DIR, type HarborScripts, WORKSPACE_DIR } from '../types.js';
import { scriptsTar } from './scripts-tar.js';

/** Marks a verifier's container among the sandboxes (sweeps remove it like any other). */
const VERIFIER_LABEL = 'agent-bench.harbor-verifier';
/** A compressed workspace larger than this is refused (a full 512 MiB tmpfs of random bytes fits). */
const MAX_WORKSPACE_TAR = 1024 * 1024 * 1024;
const COPY_MS = 180_000;

/**
 * Starts the verifier's container of `image` (with the tools volume, when the image needs one),
 * shaped like the sandbox container `agent`.
 */
export async function startVerifierContainer(
  client: Docker,
  agent: Docker.Container,
  image: string,
  toolsVolume: string,
  /** A read-only copy of the agent's work at /workspace (a separate verifier's), in place of its tmpfs. */
  workspace?: Docker.MountSettings,
): Promise<Docker.Container> {
  const info = await withDeadline(
    (abortSignal) => agent.inspect({ abortSignal }),
    ENGINE_CALL_MS,
    'inspecting the sandbox',
  ).catch((err) => {
    throw engineError('inspecting the sandbox', err);
  });
  const host = info.HostConfig;
  const labels = info.Config.Labels ?? {};
  const options = containerOptions({
    image,
    toolsVolume,
    limits: {
      ...(host.Memory ? { memory_mb: Math.round(host.Memory / 1024 / 1024) } : {}),
      ...(host.PidsLimit ? { pids: host.PidsLimit } : {}),
      ...(host.NanoCpus ? { cpus: host.NanoCpus / 1e9 } : {}),
    },
    labels: {
      ...(labels[LABEL.run] === undefined ? {} : { run: labels[LABEL.run] }),
      ...(labels[LABEL.task] === undefined ? {} : { task: labels[LABEL.task] }),
    },
  });
  // A sandbox with services (their names in its ExtraHosts): the verifier joins its network
  // namespace, as Harbor's runs beside them, and shares its /etc/hosts; no route out either way.
  const pod = (host.ExtraHosts ?? []).length > 0;
  const tmpfs = { ...(host.Tmpfs ?? options.HostConfig?.Tmpfs) };
  if (workspace !== undefined) delete tmpfs[WORKSPACE_DIR];
  const created = client.createContainer({
    ...options,
    Labels: { ...options.Labels, [VERIFIER_LABEL]: '1' },
    ...(pod ? { NetworkDisabled: false, Hostname: '' } : {}),
    HostConfig: {
      ...options.HostConfig,
      ...(pod ? { NetworkMode: `container:${agent.id}` } : {}),
      Init: false,
      ...(workspace === undefined ? {} : { Mounts: [...(options.HostConfig?.Mounts ?? []), workspace] }),
      Tmpfs: tmpfs,
    },
  });
  const container = await withDeadline(
    () => created,
    ENGINE_CALL_MS,
    `creating a container from ${image}`,
  ).catch((err) => {
    throw engineError(`creating a verifier container from ${image}`, err);
  });
  try {
    await withDeadline(
      (abortSignal) => container.start({ abortSignal }),
      ENGINE_CALL_MS,
      'starting the verifier container',
    );
  } catch (err) {
    await removeContainer(container);
    throw engineError(`starting verifier container ${container.id.slice(0, 12)}`, err);
  }
  return container;
}

/**
 * The sandbox's /workspace into the verifier's, as root on the way out (every file read whatever
 * its mode; links as links, FIFOs as FIFOs, hard links kept, nothing of them read) and as the
 * agent on the way in, modes kept: the workspace as the agent left it. Agent processes must be
 * dead by now (Sandbox.killAllProcesses), so the copy is consistent.
 */
export async function copyWorkspace(from: Docker.Container, to: Docker.Container): Promise<void> {
  const out = await bounded(from, {
    argv: [
      tool('bash'),
      '-c',
      'set -o pipefail; tar -C "$1" -c -S -f - --numeric-owner . | gzip -1',
      'copy',
      WORKSPACE_DIR,
    ],
    user: 'root',
    env: TOOLS_ENV,
    deadlineMs: COPY_MS,
    maxStdoutBytes: MAX_WORKSPACE_TAR,
    maxStderrBytes: 16 * 1024,
  });
  if (out.exitCode !== 0 || out.stdoutDropped > 0)
    throw new InfraError(
      `copying the workspace out of the sandbox failed: ${out.stdoutDropped > 0 ? `more than ${MAX_WORKSPACE_TAR} bytes compressed` : why(out)}`,
    );
  const into = await bounded(to, {
    argv: [tool('tar'), '-x', '-z', '-p', '-f', '-', '-C', WORKSPACE_DIR],
    user: 'agent',
    env: TOOLS_ENV,
    stdin: out.stdout,
    deadlineMs: COPY_MS,
    maxStdoutBytes: 4096,
    maxStderrBytes: 16 * 1024,
  });
  if (into.exitCode !== 0)
    throw new InfraError(`copying the workspace into the verifier failed: ${why(into)}`);
}

/** tests/ at /harness/tests (what the image's /tests links to), root's, as Harbor uploads them. */
export async function putTests(container: Docker.Container, tests: HarborScripts): Promise<void> {
  const r = await bounded(container, {
    argv: [tool('tar'), '-x', '-f', '-', '-C', '/', '--no-overwrite-dir'],
    user: 'root',
    stdin: await scriptsTar(tests, `${HARNESS_DIR}/tests`),
    deadlineMs: COPY_MS,
    maxStdoutBytes: 4096,
    maxStderrBytes: 16 * 1024,
  });
  if (r.exitCode !== 0) throw new InfraError(`copying tests/ into the verifier failed: ${why(r)}`);
}

/** An engine exec straight to the container (no relay), abandoned a little past its own deadline. */
export function bounded(container: Docker.Container, req: RawExecRequest): Promise<RawExecResult> {
  return withDeadline(() => rawExec(container, req), req.deadlineMs + ENGINE_CALL_MS, 'an exec');
}

/** Removes the container, quietly: one left behind carries the sandbox labels the sweeps look for. */
export async function removeContainer(container: Docker.Container): Promise<void> {
  try {
    await withDeadline(
      (abortSignal) => container.remove({ force: true, abortSignal }),
      ENGINE_CALL_MS,
      'removing the verifier container',
    );
  } catch {
    // Gone already, removal in progress, or an engine that does not answer: the next sweep's.
  }
}

function why(r: RawExecResult): string {
  if (r.deadlineHit) return 'it took too long';
  return r.stderr.toString('utf8').trim().slice(0, 500) || `exit code ${r.exitCode}`;
}
