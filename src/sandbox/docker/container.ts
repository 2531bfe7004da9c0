/** Creates the hardened, long-lived container one sandbox runs its commands in. */
import type Docker from 'dockerode';
import { InternalError } from '../../util/errors.js';
import { hostEntries } from '../services/hosts.js';
import { TOOLS_DIR, tool } from '../tools.js';
import {
  CHECKER_HOME,
  CHECKS_DIR,
  HARNESS_DIR,
  type PodSpec,
  type ReadOnlyMount,
  WORKSPACE_DIR,
} from '../types.js';
import { ENGINE_CALL_MS, EngineStalled, withDeadline } from './deadline.js';
import { engineError, statusOf } from './engine.js';
import { type SandboxLabels, sandboxLabels } from './labels.js';
import { AGENT_UID, CHECKER_UID } from './users.js';

/** Per-exec output files live here (see sandbox/exec-wrapper.sh); root only. */
export const EXEC_DIR = '/run/agent-bench';

interface ContainerLimits {
  memory_mb?: number;
  pids?: number;
  cpus?: number;
}

interface TmpfsSizes {
  workspaceMb?: number;
  tmpMb?: number;
  harnessMb?: number;
  execMb?: number;
  /** Staged copies of the workspace (stageForChecks): room for a full one. */
  checksMb?: number;
  checkerHomeMb?: number;
}

export interface ContainerSpec {
  image: string;
  limits?: ContainerLimits;
  tmpfs?: TmpfsSizes;
  labels?: SandboxLabels;
  /** Read-only bind mounts, each at a direct child of /workspace (see ReadOnlyMount). */
  mounts?: readonly ReadOnlyMount[];
  /**
   * A named volume holding the tools bundle, mounted read-only where the harness looks for it: for
   * an image without it (a Harbor task's own). The sandbox image carries the bundle itself.
   */
  toolsVolume?: string;
  /** The task's services, run as a pod around the container (src/sandbox/services/). */
  services?: PodSpec;
}

export const DEFAULT_CONTAINER_LIMITS = { memory_mb: 2048, pids: 256, cpus: 2 } as const;
// tmpfs pages are charged to the container's memory limit when used: a full workspace and its
// staged copy take half of the default limit, everything full three quarters.
const DEFAULT_TMPFS = {
  workspaceMb: 512,
  tmpMb: 256,
  harnessMb: 64,
  execMb: 128,
  checksMb: 512,
  checkerHomeMb: 64,
} as const;

/**
 * The root-side capabilities the harness's own execs need: KILL to kill the agent's processes
 * (timeouts, resets), DAC_OVERRIDE to read (snapshot) and delete (reset) files the agent made
 * unreadable, FOWNER to delete in sticky directories (/dev/shm, /dev/mqueue) and restore the
 * mount points' modes, SETUID/SETGID for the exec wrapper (root, so the agent cannot kill it) to
 * start the command as the agent, and for the file tools to take the agent's filesystem identity
 * (sandbox/relay/file_tool.py). No CHOWN: files are created by the user who should own them.
 * The agent never holds any: it is uid 1000 with no-new-privileges, so its sets are empty.
 */
const ROOT_CAPABILITIES = ['KILL', 'DAC_OVERRIDE', 'FOWNER', 'SETUID', 'SETGID'];

export function containerOptions(spec: ContainerSpec): Docker.ContainerCreateOptions {
  const limits = { ...DEFAULT_CONTAINER_LIMITS, ...spec.limits };
  const sizes = { ...DEFAULT_TMPFS, ...spec.tmpfs };
  const memory = limits.memory_mb * 1024 * 1024;
  const mount = (mb: number, rest: string): string => `rw,exec,nosuid,nodev,size=${mb}m,${rest}`;
  const hosts = hostEntries(spec.services);
  const mounts = [
    ...bindMounts(spec.mounts ?? []),
    ...(spec.toolsVolume === undefined ? [] : [toolsMount(spec.toolsVolume)]),
  ];
  return {
    Image: spec.image,
    // The keeper runs as root so that the agent's `kill -9 -1` cannot take the container down.
    // It is the bundle's sleep, whatever the image's entrypoint or programs.
    User: '0:0',
    Entrypoint: [tool('sleep')],
    Cmd: ['infinity'],
    WorkingDir: WORKSPACE_DIR,
    Hostname: 'sandbox',
    Labels: sandboxLabels(spec.labels ?? {}),
    // A disabled network gets no /etc/hosts from the engine: with services, `none` alone (loopback
    // only, no route anywhere, as `docker run --network none`) keeps their names in it.
    NetworkDisabled: hosts.length === 0,
    HostConfig: {
      NetworkMode: 'none',
      CapDrop: ['ALL'],
      CapAdd: ROOT_CAPABILITIES,
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      Init: true,
      Memory: memory,
      MemorySwap: memory,
      PidsLimit: limits.pids,
      NanoCpus: Math.round(limits.cpus * 1e9),
      Ulimits: [{ Name: 'core', Soft: 0, Hard: 0 }],
      // The services' names on loopback: the engine writes them to /etc/hosts, which the services share.
      ...(hosts.length === 0 ? {} : { ExtraHosts: hosts }),
      // Docker mounts by depth, so a bind at /workspace/<name> lands inside the /workspace tmpfs.
      ...(mounts.length === 0 ? {} : { Mounts: mounts }),
      Tmpfs: {
        // 0750: the checker never reaches the live workspace (see the Dockerfile).
        [WORKSPACE_DIR]: mount(sizes.workspaceMb, `uid=${AGENT_UID},gid=${AGENT_UID},mode=0750`),
        '/tmp': mount(sizes.tmpMb, `uid=${AGENT_UID},gid=${AGENT_UID},mode=1777`),
        [HARNESS_DIR]: mount(sizes.harnessMb, 'mode=0700'),
        [EXEC_DIR]: mount(sizes.execMb, 'mode=0700'),
        [CHECKS_DIR]: mount(sizes.checksMb, `uid=0,gid=${CHECKER_UID},mode=0750`),
        [CHECKER_HOME]: mount(sizes.checkerHomeMb, `uid=${CHECKER_UID},gid=${CHECKER_UID},mode=0700`),
      },
      AutoRemove: false,
      Privileged: false,
    },
  };
}

/** The workspace-relative names of the mounts: what snapshots skip and resets keep. */
export function mountNames(mounts: readonly ReadOnlyMount[] | undefined): string[] {
  return (mounts ?? []).map((m) => mountName(m.containerPath));
}

function mountName(containerPath: string): string {
  const name = containerPath.startsWith(`${WORKSPACE_DIR}/`)
    ? containerPath.slice(WORKSPACE_DIR.length + 1)
    : '';
  // Plain names only: the reset script and the snapshot walk compare them as they are.
  if (!/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(name))
    throw new InternalError(
      `a sandbox mount must be a direct child of ${WORKSPACE_DIR}, not ${containerPath}`,
    );
  return name;
}

/** The tools volume, read-only at the bundle's place (harbor/tools-volume.ts fills it). */
export function toolsMount(volume: string): Docker.MountSettings {
  return { Type: 'volume', Source: volume, Target: TOOLS_DIR, ReadOnly: true };
}

function bindMounts(mounts: readonly ReadOnlyMount[]): Docker.MountConfig {
  return mounts.map((m) => {
    mountName(m.containerPath);
    if (!m.hostPath.startsWith('/'))
      throw new InternalError(`a sandbox mount needs an absolute host path, not ${m.hostPath}`);
    return { Type: 'bind', Source: m.hostPath, Target: m.containerPath, ReadOnly: true };
  });
}

/** Creates and starts a container; removes it again (in the background) if it cannot start. */
export async function startContainer(client: Docker, spec: ContainerSpec): Promise<Docker.Container> {
  let container: Docker.Container;
  const what = `creating a sandbox container from ${spec.image}`;
  try {
    container = await withDeadline(
      (abortSignal) => client.createContainer({ ...containerOptions(spec), abortSignal }),
      ENGINE_CALL_MS,
      what,
    );
  } catch (err) {
    // A create that timed out may still happen: its labels let `sweep` find it.
    throw engineError(what, err);
  }
  const started = `starting sandbox container ${container.id.slice(0, 12)}`;
  try {
    await withDeadline((abortSignal) => container.start({ abortSignal }), ENGINE_CALL_MS, started);
  } catch (err) {
    void removeContainer(container).catch(() => {});
    throw engineError(started, err);
  }
  return container;
}

/**
 * Forced removal with a deadline; a container already gone (404) or being removed (409) is no
 * failure. Past the deadline it rejects with EngineStalled and the container stays labelled for
 * `sweep`.
 */
export async function removeContainer(container: Docker.Container): Promise<void> {
  try {
    await withDeadline(
      (abortSignal) => container.remove({ force: true, abortSignal }),
      ENGINE_CALL_MS,
      `removing sandbox container ${container.id.slice(0, 12)}`,
    );
  } catch (err) {
    if (statusOf(err) !== 404 && statusOf(err) !== 409) throw err;
  }
}

/**
 * Whether the container still runs, and if not a short reason for messages. Asked after an exec
 * ended abnormally, when the engine may close the stream a moment before it marks the container
 * stopped (over a second on a busy machine): a running answer is confirmed over three seconds.
 */
export async function containerState(container: Docker.Container): Promise<ContainerState> {
  for (let i = 0; i < 15; i++) {
    const state = await stateNow(container);
    if (!state.running) return state;
    await new Promise((r) => setTimeout(r, 200));
  }
  return stateNow(container);
}

interface ContainerState {
  running: boolean;
  detail: string;
}

/** An engine that does not answer throws (EngineStalled): that is no news about the container. */
async function stateNow(container: Docker.Container): Promise<ContainerState> {
  try {
    const inspected = await withDeadline(
      (abortSignal) => container.inspect({ abortSignal }),
      ENGINE_CALL_MS,
      `inspecting sandbox container ${container.id.slice(0, 12)}`,
    );
    const s = inspected.State;
    if (s.Running && !s.Paused) return { running: true, detail: 'running' };
    const oom = s.OOMKilled ? ', killed for lack of memory' : '';
    return { running: false, detail: `${s.Status}, exit code ${s.ExitCode}${oom}` };
  } catch (err) {
    if (err instanceof EngineStalled) throw err;
    return { running: false, detail: 'removed' };
  }
}

/** Whether the container's process limit is (nearly) exhausted: the usual reason it stops answering. */
export async function pidsExhausted(container: Docker.Container): Promise<boolean> {
  try {
    const stats = (await withDeadline(
      (abortSignal) => container.stats({ stream: false, abortSignal } as { stream: false }),
      ENGINE_CALL_MS,
      'reading container stats',
    )) as {
      pids_stats?: { current?: number; limit?: number };
    };
    const { current, limit } = stats.pids_stats ?? {};
    return current !== undefined && limit !== undefined && limit > 0 && current >= limit - 2;
  } catch {
    return false;
  }
}
