/**
 * The sandbox's public entry. Everything else in src/sandbox/docker and src/sandbox/image is an
 * implementation detail; callers depend on these functions and on ./types.ts.
 */
import { DockerSandbox, type DockerSandboxOptions } from './docker/sandbox.js';

export { DEFAULT_CONTAINER_LIMITS as DEFAULT_LIMITS } from './docker/container.js';
export { checkEngine, useDockerHost } from './docker/engine.js';

export { DockerSandbox, type DockerSandboxOptions } from './docker/sandbox.js';
export { sweepSandboxes } from './docker/sweep.js';
export {
  ensureImage,
  imageStatus,
} from './image/ensure.js';

/** Starts a hardened sandbox container from `options.image` (a tag from ensureImage). */
export function createDockerSandbox(options: DockerSandboxOptions): Promise<DockerSandbox> {
  return DockerSandbox.create(options);
}
