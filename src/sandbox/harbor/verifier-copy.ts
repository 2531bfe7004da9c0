/**
 * What a separate verifier is given of the agent's work, as Harbor gives it: the task's declared
 * `artifacts` when it declares any, else the whole final workspace, copied out of the agent's
 * container into a volume of its own that the verifier mounts read-only. test.sh reads the agent's
 * work and cannot change it: it judges a copy, never what it wrote itself. The volume is removed
 * with the trial; it carries the sandbox labels, so one a crash left behind is found:
 * the sweeps remove it once its run is gone, as they do its containers.
 */
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import { ENGINE_CALL_MS, withDeadline } from '../docker/deadline.js';
import { engineError } from '../docker/engine.js';
import { type SandboxLabels, sandboxLabels } from '../docker/labels.js';
import { tool } from '../tools.js';
import { bounded } from './verifier-container.js';

/** A compressed copy larger than this is refused, as the workspace copy is (verifier-container.ts). */
const MAX_COPY_TAR = 1024 * 1024 * 1024;
const COPY_MS = 180_000;
/** Where the copy is unpacked in the never-started container that fills the volume. */
const FILL_DIR = '/agent-bench-copy';
/** The engine's NoCopy alone (dockerode's type asks for every field, which the engine does not). */
const NO_COPY = { NoCopy: true } as NonNullable<Docker.MountSettings['VolumeOptions']>;

export interface VerifierCopy {
  /** The volume holding the copy. */
  volume: string;
  /** The copy, read-only at `target` of a container. */
  mount(target: string): Docker.MountSettings;
}

/**
 * Copies `paths` (relative to `dir`; all of `dir` when undefined) out of `from` into a fresh
 * volume. A declared artifact the agent never made is left out, as Harbor skips it.
 */
export async function copyForVerifier(
  client: Docker,
  from: Docker.Container,
  dir: string,
  paths: readonly string[] | undefined,
  image: string,
  labels: SandboxLabels,
): Promise<VerifierCopy> {
  const tar = await packFrom(from, dir, paths);
  const volume = `agent-bench-verifier-copy-${randomBytes(6).toString('hex')}`;
  await withDeadline(
    () => client.createVolume({ Name: volume, Labels: sandboxLabels(labels) }),
    ENGINE_CALL_MS,
    'creating a volume',
  ).catch((err) => {
    throw engineError(`creating volume ${volume} for the verifier's copy`, err);
  });
  try {
    await fill(client, volume, image, tar);
  } catch (err) {
    await removeVerifierCopy(client, volume);
    throw err;
  }
  return {
    volume,
    // NoCopy: an empty copy (no artifact made) must not be filled from the image's own directory.
    mount: (target) => ({
      Type: 'volume',
      Source: volume,
      Target: target,
      ReadOnly: true,
      VolumeOptions: NO_COPY,
    }),
  };
}

/** Removes the copy's volume, quietly: a leftover carries the sandbox labels. */
export async function removeVerifierCopy(client: Docker, volume: string): Promise<void> {
  try {
    await withDeadline(
      (abortSignal) => client.getVolume(volume).remove({ abortSignal }),
      ENGINE_CALL_MS,
      'removing a volume',
    );
  } catch {
    // Gone already, or still held by a container being removed: left, labelled.
  }
}

/** A tar of `paths` under `dir` in `from`, read as root (whatever their modes), links as links. */
async function packFrom(
  from: Docker.Container,
  dir: string,
  paths: readonly string[] | undefined,
): Promise<Buffer> {
  const out = await bounded(from, {
    // --ignore-failed-read: a declared artifact that does not exist is skipped, not fatal.
    argv: [
      tool('tar'),
      '-C',
      dir,
      '-c',
      '-f',
      '-',
      '--numeric-owner',
      '--ignore-failed-read',
      '--',
      ...(paths ?? ['.']),
    ],
    user: 'root',
    deadlineMs: COPY_MS,
    maxStdoutBytes: MAX_COPY_TAR,
    maxStderrBytes: 16 * 1024,
  });
  if (out.exitCode !== 0 || out.stdoutDropped > 0)
    throw new InfraError(
      `copying ${paths === undefined ? 'the workspace' : 'the declared artifacts'} out of the agent's container failed: ${out.stdoutDropped > 0 ? `more than ${MAX_COPY_TAR} bytes` : out.deadlineHit ? 'it took too long' : out.stderr.toString('utf8').trim().slice(0, 500) || `exit code ${out.exitCode}`}`,
    );
  return out.stdout;
}

/** The tar unpacked into the volume through a container that is created, never started. */
async function fill(client: Docker, volume: string, image: string, tar: Buffer): Promise<void> {
  const filler = await withDeadline(
    () =>
      client.createContainer({
        Image: image,
        Entrypoint: [tool('sleep')],
        Cmd: ['0'],
        NetworkDisabled: true,
        HostConfig: {
          NetworkMode: 'none',
          Mounts: [{ Type: 'volume', Source: volume, Target: FILL_DIR, VolumeOptions: NO_COPY }],
        },
      }),
    ENGINE_CALL_MS,
    'creating a container',
  ).catch((err) => {
    throw engineError(`creating a container to fill the verifier's copy from ${image}`, err);
  });
  try {
    await withDeadline(() => filler.putArchive(tar, { path: FILL_DIR }), COPY_MS, 'copying into a volume');
  } catch (err) {
    throw engineError("copying the agent's work into the verifier's copy", err);
  } finally {
    await filler.remove({ force: true }).catch(() => {});
  }
}
