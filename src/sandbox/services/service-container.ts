/**
 * The container of one service of a pod: in the agent's container's network namespace (no network
 * of its own, so no route anywhere the agent has none), hardened as the sandbox is (no capabilities,
 * no new privileges, a read-only filesystem with tmpfs for /tmp and the service's declared
 * directories, memory, process and CPU limits, an init), as nobody unless the service names its
 * user, and labelled as a sandbox (sweeps remove a leftover) and with its service's name.
 */
import type Docker from 'dockerode';
import { ENGINE_CALL_MS, withDeadline } from '../docker/deadline.js';
import { engineError } from '../docker/engine.js';
import { type SandboxLabels, sandboxLabels } from '../docker/labels.js';
import type { ServiceSpec } from '../types.js';

export const SERVICE_LABEL = 'agent-bench.service';

/** A service's share: less than the agent's sandbox, whose default is 2048 MiB and 256 processes. */
const SERVICE_LIMITS = { memoryMb: 512, pids: 128, cpus: 1 } as const;
/** Nobody: a uid of no user in the sandbox image, owning nothing (the agent is uid 1000). */
const DEFAULT_USER = '65534:65534';
const MS_TO_NS = 1_000_000;

export function serviceOptions(
  service: ServiceSpec,
  image: string,
  mainId: string,
  labels: SandboxLabels,
): Docker.ContainerCreateOptions {
  const memory = SERVICE_LIMITS.memoryMb * 1024 * 1024;
  const tmpfs = Object.fromEntries(
    ['/tmp', ...service.tmpfs].map((p) => [p, 'rw,exec,nosuid,nodev,size=64m,mode=1777']),
  );
  const h = service.healthcheck;
  return {
    Image: image,
    User: service.user ?? DEFAULT_USER,
    Env: Object.entries(service.environment).map(([k, v]) => `${k}=${v}`),
    ...(service.command === undefined ? {} : { Cmd: [...service.command] }),
    ...(service.entrypoint === undefined ? {} : { Entrypoint: [...service.entrypoint] }),
    ...(service.workingDir === undefined ? {} : { WorkingDir: service.workingDir }),
    Labels: { ...sandboxLabels(labels), [SERVICE_LABEL]: service.name },
    ...(h === undefined
      ? {}
      : {
          Healthcheck: {
            Test: [...h.test],
            Interval: h.intervalMs * MS_TO_NS,
            Timeout: h.timeoutMs * MS_TO_NS,
            Retries: h.retries,
            StartPeriod: h.startPeriodMs * MS_TO_NS,
          },
        }),
    HostConfig: {
      NetworkMode: `container:${mainId}`,
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      ReadonlyRootfs: true,
      Init: true,
      Memory: memory,
      MemorySwap: memory,
      PidsLimit: SERVICE_LIMITS.pids,
      NanoCpus: SERVICE_LIMITS.cpus * 1e9,
      Tmpfs: tmpfs,
      AutoRemove: false,
      Privileged: false,
    },
  };
}

/** Creates and starts a service's container; one that does not start is removed again. */
export async function startServiceContainer(
  client: Docker,
  options: Docker.ContainerCreateOptions,
  name: string,
): Promise<Docker.Container> {
  const what = `creating the container of service "${name}"`;
  const container = await withDeadline(
    (abortSignal) => client.createContainer({ ...options, abortSignal }),
    ENGINE_CALL_MS,
    what,
  ).catch((err) => {
    throw engineError(what, err);
  });
  try {
    await withDeadline(
      (abortSignal) => container.start({ abortSignal }),
      ENGINE_CALL_MS,
      `starting service "${name}"`,
    );
  } catch (err) {
    void container.remove({ force: true }).catch(() => {});
    throw engineError(`starting service "${name}"`, err);
  }
  return container;
}
