/**
 * The image a model's trial of a Harbor task runs in: the task's image (image.ts) with a
 * thin layer that fits it to agent-bench's sandbox. The task's WORKDIR becomes a link to
 * /workspace (the sandbox's tmpfs, which snapshots and tamper detection watch), its files are kept
 * aside as the seed each trial copies into the workspace, and /logs and /tests point into /harness
 * (root-only): the verifier writes where Harbor's contract says, the agent never sees them; /solution
 * too, where the oracle's files go (oracle.ts). The
 * sandbox itself (exec wrapper, strace, the agent and checker users) must come from the task's
 * base: agent-bench's sandbox image, given with --base-image. Built once per task image, offline.
 */
import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { InfraError } from '../../util/errors.js';
import { engineError, statusOf } from '../docker/engine.js';
import { followProgress } from '../image/progress.js';
import { type HarborEnvironmentSpec, WORKSPACE_DIR } from '../types.js';
import { collect, ensureHarborImage, harborTag, startBuild } from './image.js';

/** Where the layer keeps the WORKDIR's files as the image had them (readable by the agent). */
export const HARBOR_SEED_DIR = '/opt/agent-bench-harbor/seed';
const WRAPPER = '/usr/local/lib/agent-bench/exec-wrapper';
const REPOSITORY = 'agent-bench-harbor-run';
/** The layer's exit code when its base has no sandbox (the build error carries only the code). */
const NO_SANDBOX_EXIT = 97;

/** The layer's Dockerfile: what turns the task's image into a sandbox for its WORKDIR. */
function runLayer(from: string, workdir: string): string {
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  // `/` cannot become a link, and /workspace is already the workspace: both keep their place.
  const relink = workdir !== '/' && workdir !== WORKSPACE_DIR;
  const steps = [
    `test -x ${WRAPPER} || exit ${NO_SANDBOX_EXIT}`,
    // A declared workdir the image lacks starts empty.
    `mkdir -p ${HARBOR_SEED_DIR} ${q(workdir)}`,
    ...(workdir === '/' ? [] : [`cp -a ${q(workdir)}/. ${HARBOR_SEED_DIR}/`]),
    `chmod -R a+rX ${HARBOR_SEED_DIR}`,
    ...(relink
      ? [
          `rm -rf ${q(workdir)}`,
          `mkdir -p "$(dirname ${q(workdir)})"`,
          `ln -s ${WORKSPACE_DIR} ${q(workdir)}`,
        ]
      : []),
    'rm -rf /logs /tests /solution',
    'ln -s /harness/logs /logs',
    'ln -s /harness/tests /tests',
    // The oracle's solution/ (oracle.ts), for `--model oracle` only: a model never gets it.
    'ln -s /harness/solution /solution',
  ];
  return `FROM ${from}\nUSER root\nRUN ${steps.join(' && \\\n    ')}\nWORKDIR ${WORKSPACE_DIR}\n`;
}

export interface HarborRunImage {
  tag: string;
  /** The task image's WORKDIR as the engine built it: what test.sh runs in, now a link to /workspace. */
  workdir: string;
}

/** The sandbox-ready image of a task, built on first use. */
export async function ensureHarborRunImage(
  client: Docker,
  spec: HarborEnvironmentSpec,
  onProgress?: (line: string) => void,
): Promise<HarborRunImage> {
  const image = await ensureHarborImage(client, spec, onProgress);
  // task.toml's workdir wins; else the engine's word, not the Dockerfile's: a relative WORKDIR
  // resolves against the base's own.
  const workdir = spec.declaredWorkdir ?? (await workingDir(client, image)) ?? '/';
  const dockerfile = runLayer(image, workdir);
  const key = createHash('sha256').update(`${image}\0${dockerfile}`).digest('hex');
  const tag = harborTag(REPOSITORY, spec.id, key);
  if ((await workingDir(client, tag)) !== null) return { tag, workdir };
  onProgress?.(`building ${tag} (the sandbox for Harbor task ${spec.id})`);
  const stream = await startBuild(client, await tarOf(dockerfile), tag, spec.id, false);
  try {
    await followProgress(client, stream, `building the sandbox of Harbor task ${spec.id}`, () => {});
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (new RegExp(`code: ${NO_SANDBOX_EXIT}\\b`).test(message))
      throw new InfraError(
        `${spec.id}: a model runs a Harbor task in agent-bench's sandbox, which its image lacks; build it on the sandbox image with --base-image (e.g. the tag \`agent-bench image build\` prints)`,
        { cause: err },
      );
    throw new InfraError(`${spec.id}: fitting its image to the sandbox failed: ${message.slice(-300)}`, {
      cause: err,
    });
  }
  return { tag, workdir };
}

/** The image's WORKDIR ('/' when it sets none), or null when the engine has no such image. */
export async function workingDir(client: Docker, image: string): Promise<string | null> {
  try {
    const info = await client.getImage(image).inspect();
    const dir = info.Config?.WorkingDir ?? '';
    return dir === '' ? '/' : dir;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw engineError(`inspecting image ${image}`, err);
  }
}

async function tarOf(dockerfile: string): Promise<Buffer> {
  const p = pack();
  p.entry({ name: 'Dockerfile', mode: 0o644, mtime: new Date(0) }, dockerfile);
  p.finalize();
  return collect(p);
}
