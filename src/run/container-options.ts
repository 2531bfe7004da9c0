/**
 * The container a task's environment asks for, as the sandbox creates it: the task's own image
 * (a Harbor task's, with the harness's tools volume) or the run's, its resources over the run's,
 * its mounts and its services, labelled so a later run can sweep what this one left. The one
 * factory every caller opens a task's sandbox through (a run's pool, validate).
 */
import type { RunSettings } from '../results/result-file.js';
import type { DockerSandboxOptions } from '../sandbox/index.js';
import type { ContainerEnvironment } from '../tasks/types.js';

export async function containerOptions(
  environment: ContainerEnvironment,
  run: {
    image: string;
    limits: RunSettings['limits'];
    labels: { run: string; task: string };
    note: (line: string) => void;
  },
): Promise<DockerSandboxOptions> {
  return {
    ...(environment.image === undefined ? { image: run.image } : await environment.image(run.note)),
    limits: environment.limits === undefined ? run.limits : { ...run.limits, ...environment.limits },
    labels: run.labels,
    ...(environment.mounts.length === 0 ? {} : { mounts: environment.mounts }),
    ...(environment.services === undefined ? {} : { services: environment.services }),
  };
}
