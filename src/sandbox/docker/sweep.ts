/** Removes sandbox containers (and their volumes) left behind by runs that crashed or were killed. */

import { hostname } from 'node:os';
import type Docker from 'dockerode';
import { ENGINE_CALL_MS, withDeadline } from './deadline.js';
import { docker, engineError, statusOf } from './engine.js';
import { LABEL } from './labels.js';

export interface SweepOptions {
  /** Also remove containers of live processes older than this many hours (default 24). */
  maxAgeHours?: number;
  /** Remove every sandbox container, whoever made it (`doctor --sweep`). */
  all?: boolean;
  client?: Docker;
}

/**
 * Removes labelled containers whose creating process is gone (or that are too old), then such
 * volumes (a separate verifier's copy of a workspace); returns how many containers went.
 */
export async function sweepSandboxes(options: SweepOptions = {}): Promise<number> {
  const client = options.client ?? docker();
  const maxAgeMs = (options.maxAgeHours ?? 24) * 3_600_000;
  let listed: Docker.ContainerInfo[];
  try {
    listed = await withDeadline(
      (abortSignal) =>
        client.listContainers({ all: true, filters: { label: [`${LABEL.sandbox}=1`] }, abortSignal }),
      ENGINE_CALL_MS,
      'listing sandbox containers',
    );
  } catch (err) {
    throw engineError('listing sandbox containers', err);
  }
  let removed = 0;
  for (const info of listed) {
    if (options.all !== true && !isOrphan(info.Labels, maxAgeMs)) continue;
    try {
      await withDeadline(
        (abortSignal) => client.getContainer(info.Id).remove({ force: true, abortSignal }),
        ENGINE_CALL_MS,
        `removing container ${info.Id}`,
      );
      removed++;
    } catch (err) {
      // Another sweeper (or the owner's dispose) got there first.
      if (statusOf(err) !== 404 && statusOf(err) !== 409)
        throw engineError(`removing container ${info.Id}`, err);
    }
  }
  await sweepVolumes(client, options.all === true, maxAgeMs);
  return removed;
}

/** The same for labelled volumes; one still mounted (409) stays for a later sweep. */
async function sweepVolumes(client: Docker, all: boolean, maxAgeMs: number): Promise<void> {
  const listed = await withDeadline(
    (abortSignal) => client.listVolumes({ filters: { label: [`${LABEL.sandbox}=1`] }, abortSignal }),
    ENGINE_CALL_MS,
    'listing sandbox volumes',
  ).catch((err: unknown) => {
    throw engineError('listing sandbox volumes', err);
  });
  for (const volume of listed.Volumes ?? []) {
    if (!all && !isOrphan(volume.Labels ?? {}, maxAgeMs)) continue;
    try {
      await withDeadline(
        (abortSignal) => client.getVolume(volume.Name).remove({ abortSignal }),
        ENGINE_CALL_MS,
        `removing volume ${volume.Name}`,
      );
    } catch (err) {
      if (statusOf(err) !== 404 && statusOf(err) !== 409)
        throw engineError(`removing volume ${volume.Name}`, err);
    }
  }
}

/** An orphan: made on this host by a process that no longer runs, or older than the age limit. */
export function isOrphan(labels: Record<string, string>, maxAgeMs: number, now = Date.now()): boolean {
  const created = Date.parse(labels[LABEL.created] ?? '');
  if (Number.isNaN(created) || now - created > maxAgeMs) return true;
  // A pid only means something on the host that recorded it (DOCKER_HOST may be shared).
  if (labels[LABEL.host] !== hostname()) return false;
  const pid = Number(labels[LABEL.pid]);
  return !Number.isInteger(pid) || pid <= 0 || !processAlive(pid);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
