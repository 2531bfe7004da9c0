/**
 * The sandbox's public entry. Everything else in src/sandbox/docker and src/sandbox/image is an
 * implementation detail; callers depend on these functions and on ./types.ts.
 */
import { DockerSandbox, type DockerSandboxOptions } from './docker/sandbox.js';

export {
  type ContainerLimits,
  DEFAULT_CONTAINER_LIMITS as DEFAULT_LIMITS,
  ROOT_CAPABILITIES,
  type TmpfsSizes,
} from './docker/container.js';
export { checkEngine, type EngineInfo } from './docker/engine.js';
export type { SandboxLabels } from './docker/labels.js';
export { DockerSandbox, type DockerSandboxOptions } from './docker/sandbox.js';
export { type SweepOptions, sweepSandboxes } from './docker/sweep.js';
export {
  type EnsureImageOptions,
  ensureImage,
  type ImageSource,
  imageStatus,
  type SandboxImage,
} from './image/ensure.js';

/** Starts a hardened sandbox container from `options.image` (a tag from ensureImage). */
export function createDockerSandbox(options: DockerSandboxOptions): Promise<DockerSandbox> {
  return DockerSandbox.create(options);
}
