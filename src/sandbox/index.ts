/**
 * The sandbox's public entry. Everything else in src/sandbox/docker, src/sandbox/image and
 * src/sandbox/harbor is an implementation detail; callers depend on these functions and on
 * ./types.ts (.dependency-cruiser.cjs holds them to it for src/sandbox/docker).
 */
import { docker } from './docker/engine.js';
import { DockerSandbox, type DockerSandboxOptions } from './docker/sandbox.js';
import { DockerHarborEnvironment } from './harbor/environment.js';
import type { HarborEnvironment, HarborEnvironmentSpec } from './types.js';

export { DEFAULT_CONTAINER_LIMITS as DEFAULT_LIMITS } from './docker/container.js';
export { checkEngine, useDockerHost } from './docker/engine.js';

export { ContainerGoneError } from './docker/raw-exec.js';
export { DockerSandbox, type DockerSandboxOptions } from './docker/sandbox.js';
export { ExecStalled } from './docker/stall.js';
export { sweepSandboxes } from './docker/sweep.js';
export {
  ensureImage,
  imageStatus,
} from './image/ensure.js';
export { ServiceStopped } from './services/pod.js';

/** Starts a hardened sandbox container from `options.image` (a tag from ensureImage). */
export function createDockerSandbox(options: DockerSandboxOptions): Promise<DockerSandbox> {
  return DockerSandbox.create(options);
}

/**
 * A Harbor task's environment: its images built on first use, its verifier run for a model's
 * trial in a fresh container of its own, or in a trial of its own (validate's). Nothing touches
 * the engine until then.
 */
export function openHarborEnvironment(spec: HarborEnvironmentSpec): HarborEnvironment {
  return new DockerHarborEnvironment(spec, docker);
}
