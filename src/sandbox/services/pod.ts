/**
 * A sandbox's services, run as a pod around its container: each service's container joins the
 * agent's container's network namespace, so the agent and the services reach one another on
 * 127.0.0.1 (their names resolve there: /etc/hosts entries the engine writes for the agent's
 * container, which the services share) and nothing else is reachable from any of them. Services
 * start one at a time in dependency order, each ready (healthy, or running without a healthcheck)
 * before the next; the agent's first turn waits for all. Between trials every service is started
 * afresh (a clean state) unless declared stateless; when the agent's container is replaced, all
 * are, since their network namespace went with it.
 */
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { removeContainer } from '../docker/container.js';
import { engineError, statusOf } from '../docker/engine.js';
import type { SandboxLabels } from '../docker/labels.js';
import { ensureBuiltImage } from '../harbor/image.js';
import type { PodSpec, ServiceSpec } from '../types.js';
import { stillRunning, waitReady } from './readiness.js';
import { serviceOptions, startServiceContainer } from './service-container.js';

/**
 * A service of the pod is no longer running. Before the agent's first turn that is the harness's
 * failure; after it, the agent could have brought it down through the requests it sent (it shares
 * the service's network, not its processes), so attribution.ts charges it to the agent.
 */
export class ServiceStopped extends InfraError {
  readonly service: string;

  constructor(service: string, message: string) {
    super(message);
    this.service = service;
  }
}

export class ServicePod {
  private readonly running = new Map<string, Docker.Container>();
  private readonly images = new Map<string, string>();

  private readonly client: Docker;
  private readonly spec: PodSpec;
  /** The agent's image: a sidecar's Dockerfile may build on it (`ARG SANDBOX_IMAGE`, `FROM ${SANDBOX_IMAGE}`). */
  private readonly sandboxImage: string;
  private readonly labels: SandboxLabels;

  constructor(client: Docker, spec: PodSpec, sandboxImage: string, labels: SandboxLabels) {
    this.client = client;
    this.spec = spec;
    this.sandboxImage = sandboxImage;
    this.labels = labels;
  }

  /**
   * Every service started afresh around the container `mainId` but those kept (stateless ones,
   * when `keepStateless` and they still run), in order, each ready before the next.
   */
  async start(mainId: string, keepStateless = false): Promise<void> {
    for (const service of this.spec.services) {
      const old = this.running.get(service.name);
      if (old !== undefined && keepStateless && service.stateless && (await stillRunning(old)).ready)
        continue;
      if (old !== undefined) {
        this.running.delete(service.name);
        await removeContainer(old).catch(() => {});
      }
      await this.startOne(service, mainId);
    }
  }

  /** Throws ServiceStopped naming a service that stopped (the trial's snapshots ask). */
  async check(): Promise<void> {
    for (const [name, container] of this.running) {
      const state = await stillRunning(container);
      if (!state.ready) throw new ServiceStopped(name, `${this.spec.taskId}: service "${name}" ${state.why}`);
    }
  }

  /** Removes every service's container (quietly: a leftover stays labelled for `sweep`). */
  async dispose(): Promise<void> {
    const containers = [...this.running.values()];
    this.running.clear();
    await Promise.all(containers.map((c) => removeContainer(c).catch(() => {})));
  }

  private async startOne(service: ServiceSpec, mainId: string): Promise<void> {
    const image = await this.image(service);
    const options = serviceOptions(service, image, mainId, this.labels);
    const container = await startServiceContainer(this.client, options, service.name);
    this.running.set(service.name, container);
    const readiness = await waitReady(container, service);
    if (!readiness.ready)
      throw new InfraError(
        `${this.spec.taskId}: service "${service.name}" did not become ready: ${readiness.why}`,
      );
  }

  /** The service's image: on this machine already, or its Dockerfile built offline (once, cached by content). */
  private async image(service: ServiceSpec): Promise<string> {
    const known = this.images.get(service.name);
    if (known !== undefined) return known;
    const source = service.image;
    let image: string;
    if (source.kind === 'prebuilt') {
      await this.client
        .getImage(source.image)
        .inspect()
        .catch((err) => {
          if (statusOf(err) !== 404) throw engineError(`inspecting image ${source.image}`, err);
          throw new InfraError(
            `${this.spec.taskId}: service "${service.name}": its image ${source.image} is not on this machine; pull it (docker pull ${source.image}) first`,
          );
        });
      image = source.image;
    } else
      image = await ensureBuiltImage(this.client, `${this.spec.taskId}-${service.name}`, source, {
        SANDBOX_IMAGE: this.sandboxImage,
      });
    this.images.set(service.name, image);
    return image;
  }
}
