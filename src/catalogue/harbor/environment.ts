/**
 * A Harbor task's environment as the sandbox takes it (src/sandbox/: HarborEnvironmentSpec): where
 * its image comes from, its WORKDIR and resources, its verifier and oracle. With `--base-image`, the
 * Dockerfile is given with its FROMs set to that local image; either way rewritten for the engine's
 * classic builder (classic-dockerfile.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HarborEnvironmentSpec, HarborImageSource, PodSpec } from '../../sandbox/types.js';
import { InternalError } from '../../util/errors.js';
import { contextDigest, resolveServices } from '../services/resolve.js';
import { forClassicBuilder } from './classic-dockerfile.js';
import { dockerfileFacts, onBaseImage } from './dockerfile.js';
import { HARBOR_ENVIRONMENT, type HarborTask, harborServiceRoot, harborWorkdir } from './load.js';

export function harborEnvironmentSpec(task: HarborTask, baseImage?: string): HarborEnvironmentSpec {
  return {
    id: task.id,
    image: imageSource(task, baseImage),
    workdir: harborWorkdir(task),
    ...(task.environment.workdir === null ? {} : { declaredWorkdir: task.environment.workdir }),
    resources: { cpus: task.environment.cpus, memoryMb: task.environment.memoryMb },
    verifier: {
      dir: join(task.dir, 'tests'),
      files: task.tests,
      timeoutSec: task.verifier.timeoutSec,
      env: task.verifier.env,
      ...(task.verifier.separate === null ? {} : { image: verifierImage(task, baseImage) }),
      ...(task.verifier.artifacts === null ? {} : { artifacts: task.verifier.artifacts }),
    },
    oracle: {
      dir: join(task.dir, 'solution'),
      files: task.solution,
      timeoutSec: task.agentTimeoutSec,
      env: task.oracleEnv,
    },
    ...(task.services.length === 0 ? {} : { services: podOf(task, baseImage) }),
  };
}

/** A separate verifier's image: tests/ built like environment/ (on `--base-image` when given), or the image named. */
function verifierImage(task: HarborTask, baseImage: string | undefined): HarborImageSource {
  if (task.verifier.separate?.kind === 'image')
    return { kind: 'prebuilt', image: task.verifier.separate.image };
  const contextDir = join(task.dir, 'tests');
  const text = readFileSync(join(contextDir, 'Dockerfile'), 'utf8');
  return {
    kind: 'dockerfile',
    contextDir,
    contextDigest: contextDigest(contextDir),
    dockerfile: forClassicBuilder(baseImage === undefined ? text : onBaseImage(text, baseImage)),
    dockerfileName: 'tests/Dockerfile',
    from: dockerfileFacts(text)?.baseImage ?? '',
    ...(baseImage === undefined ? {} : { baseImage }),
    buildTimeoutSec: task.environment.buildTimeoutSec,
    network: task.environment.allowInternet,
  };
}

/** The compose file's sidecars, built on `--base-image` when given (the loader checked them already). */
function podOf(task: HarborTask, baseImage: string | undefined): PodSpec {
  const problems: string[] = [];
  const root = harborServiceRoot(task.dir, task.environment.buildTimeoutSec, baseImage);
  const services = resolveServices(task.services, root, problems);
  if (problems.length > 0) throw new InternalError(`${task.id}: ${problems.join('; ')}`);
  return { taskId: task.id, services };
}

function imageSource(task: HarborTask, baseImage: string | undefined): HarborImageSource {
  if (task.dockerfile === null) return { kind: 'prebuilt', image: task.environment.dockerImage ?? '' };
  const { text, facts } = task.dockerfile;
  return {
    kind: 'dockerfile',
    contextDir: join(task.dir, HARBOR_ENVIRONMENT),
    contextDigest: task.contextDigest,
    dockerfile: forClassicBuilder(baseImage === undefined ? text : onBaseImage(text, baseImage)),
    from: facts.baseImage,
    ...(baseImage === undefined ? {} : { baseImage }),
    buildTimeoutSec: task.environment.buildTimeoutSec,
    network: task.environment.allowInternet,
  };
}
