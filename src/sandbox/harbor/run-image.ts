/**
 * The image a model's trial of a Harbor task runs in: the task's image (image.ts) fitted to
 * agent-bench's sandbox. The task's WORKDIR becomes a link to /workspace (the sandbox's tmpfs, which
 * snapshots and tamper detection watch), its files are kept aside as the seed each trial copies into
 * the workspace, and /logs and /tests point into /harness (root-only): the verifier writes where
 * Harbor's contract says, the agent never sees them; /solution
 * too, where the oracle's files go (oracle.ts). Nothing else of the sandbox need be in the
 * image: the harness's tools come from the tools volume (tools-volume.ts), and so does this fitting,
 * which runs the bundle's shell and coreutils in a container of the task's image with the volume
 * mounted, then commits it. So any image fits, down to a static busybox. Built once per task image.
 */
import { createHash } from 'node:crypto';
import type Docker from 'dockerode';
import { toolsMount } from '../docker/container.js';
import { withDeadline } from '../docker/deadline.js';
import { engineError, statusOf } from '../docker/engine.js';
import { TOOLS_ENV, tool } from '../tools.js';
import { type HarborEnvironmentSpec, WORKSPACE_DIR } from '../types.js';
import { ensureHarborImage, harborTag } from './image.js';
import { runOnce } from './one-shot.js';
import { ensureToolsVolume } from './tools-volume.js';

/** Where the fitting keeps the WORKDIR's files as the image had them (readable by the agent). */
export const HARBOR_SEED_DIR = '/opt/agent-bench-harbor/seed';
const REPOSITORY = 'agent-bench-harbor-run';
const SETUP_MS = 180_000;

/**
 * $1: the image's WORKDIR. `/` cannot become a link, and /workspace is already the workspace: both
 * keep their place. A WORKDIR inside /workspace (a relative WORKDIR on a base whose own is
 * /workspace) is a folder of the workspace: the seed is the whole of /workspace, so the folder is
 * where the WORKDIR says once the seed is copied in. PATH: the bundle's programs only.
 */
const SETUP_SCRIPT = `PATH=${TOOLS_ENV.PATH}
set -eu
w=$1
# A declared workdir the image lacks starts empty.
mkdir -p ${HARBOR_SEED_DIR} "$w"
case $w in
  ${WORKSPACE_DIR}/*) from=${WORKSPACE_DIR} ;;
  *) from=$w ;;
esac
[ "$w" = / ] || cp -a "$from/." ${HARBOR_SEED_DIR}/
chmod -R a+rX ${HARBOR_SEED_DIR}
case $w in
  / | ${WORKSPACE_DIR} | ${WORKSPACE_DIR}/*) ;;
  *)
    rm -rf "$w"
    mkdir -p "$(dirname "$w")"
    ln -s ${WORKSPACE_DIR} "$w"
    ;;
esac
rm -rf /logs /tests /solution
ln -s /harness/logs /logs
ln -s /harness/tests /tests
# The oracle's solution/ (oracle.ts), for --model oracle only: a model never gets it.
ln -s /harness/solution /solution
`;

export interface HarborRunImage {
  tag: string;
  /** The task image's WORKDIR as the engine built it: what test.sh runs in, now a link to /workspace. */
  workdir: string;
  /** The tools volume every container of the image mounts (tools-volume.ts). */
  toolsVolume: string;
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
  const toolsVolume = await ensureToolsVolume(client, onProgress);
  const key = createHash('sha256').update(`${image}\0${workdir}\0${SETUP_SCRIPT}`).digest('hex');
  const tag = harborTag(REPOSITORY, spec.id, key);
  if ((await workingDir(client, tag)) !== null) return { tag, workdir, toolsVolume };
  onProgress?.(`building ${tag} (the sandbox for Harbor task ${spec.id})`);
  await fitImage(client, image, workdir, tag, toolsVolume, spec.id);
  return { tag, workdir, toolsVolume };
}

/** Runs the setup in a container of `image` with the tools mounted, and commits it as `tag`. */
async function fitImage(
  client: Docker,
  image: string,
  workdir: string,
  tag: string,
  toolsVolume: string,
  id: string,
): Promise<void> {
  const what = `fitting the image of Harbor task ${id} to the sandbox`;
  const options: Docker.ContainerCreateOptions = {
    Image: image,
    User: '0:0',
    Entrypoint: [tool('sh')],
    Cmd: ['-c', SETUP_SCRIPT, 'setup', workdir],
    WorkingDir: '/',
    NetworkDisabled: true,
    HostConfig: { NetworkMode: 'none', Mounts: [toolsMount(toolsVolume)] },
  };
  const [repo, version] = tag.split(':') as [string, string];
  // The committed image keeps the task image's config but for its WORKDIR; every container of it
  // names its own entrypoint (the bundle's sleep).
  await runOnce(client, options, what, SETUP_MS, (container) =>
    withDeadline(
      () => container.commit({ repo, tag: version, changes: `WORKDIR ${WORKSPACE_DIR}` }),
      SETUP_MS,
      what,
    ),
  );
}

/** The image's WORKDIR ('/' when it sets none), or null when the engine has no such image. */
async function workingDir(client: Docker, image: string): Promise<string | null> {
  try {
    const info = await client.getImage(image).inspect();
    const dir = info.Config?.WorkingDir ?? '';
    return dir === '' ? '/' : dir;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw engineError(`inspecting image ${image}`, err);
  }
}
