/**
 * Makes sure the sandbox image for the current inputs exists. Two ways to build it, tried in order:
 * registry (pull debian:bookworm-slim, apt-get in the Dockerfile) and offline (debootstrap from the
 * host's Debian mirror, imported as the base; the Dockerfile's apt-get step then skips itself and
 * the build runs with no network). Which one ran is returned and said through onProgress.
 */
import type Docker from 'dockerode';
import { errorMessage, InfraError } from '../../util/errors.js';
import { packageRoot } from '../../util/package-root.js';
import { docker, engineError, statusOf } from '../docker/engine.js';
import { buildSandboxImage } from './build.js';
import { baseTag, imageInputs, imageTag, REGISTRY_BASE } from './inputs.js';
import { buildOfflineBase } from './offline-base.js';
import { followProgress } from './progress.js';

type ImageSource = 'cached' | 'registry' | 'offline';

export interface SandboxImage {
  tag: string;
  /** Content-addressed image id (sha256:...), for results to record. */
  id: string;
  source: ImageSource;
  /** Time spent building (0 when cached). */
  buildMs: number;
}

export interface EnsureImageOptions {
  onProgress?: (line: string) => void;
  client?: Docker;
  /** Folder holding Dockerfile and sandbox/ (default: the agent-bench package). */
  root?: string;
}

export async function ensureImage(options: EnsureImageOptions = {}): Promise<SandboxImage> {
  const client = options.client ?? docker();
  const say = options.onProgress ?? (() => {});
  const root = options.root ?? packageRoot();
  const files = await imageInputs(root);
  const tag = imageTag(files);
  const cached = await imageId(client, tag);
  if (cached !== null) return { tag, id: cached, source: 'cached', buildMs: 0 };

  const started = Date.now();
  say(`Sandbox image ${tag} is not built yet; building it (once per Dockerfile change).`);
  let source: ImageSource;
  if (await pullBase(client, say)) {
    source = 'registry';
    say(`Registry path: building on ${REGISTRY_BASE}.`);
    await buildSandboxImage(client, files, { tag, base: REGISTRY_BASE, onProgress: say });
  } else {
    source = 'offline';
    const base = baseTag(files);
    if ((await imageId(client, base)) === null) {
      say(`Offline path: building base ${base} with debootstrap (a few minutes, once).`);
      await buildOfflineBase(client, root, base, say);
    } else {
      say(`Offline path: reusing base ${base}.`);
    }
    await buildSandboxImage(client, files, { tag, base, networkMode: 'none', onProgress: say });
  }
  const id = await imageId(client, tag);
  if (id === null) throw new InfraError(`the build of ${tag} finished but the engine has no such image`);
  const buildMs = Date.now() - started;
  say(`Built ${tag} (${source} path) in ${Math.round(buildMs / 1000)} s.`);
  return { tag, id, source, buildMs };
}

/** The tag the current inputs want, and its id if it is built (null otherwise). Never builds. */
export async function imageStatus(
  options: { client?: Docker; root?: string } = {},
): Promise<{ tag: string; id: string | null }> {
  const client = options.client ?? docker();
  const tag = imageTag(await imageInputs(options.root ?? packageRoot()));
  return { tag, id: await imageId(client, tag) };
}

async function imageId(client: Docker, tag: string): Promise<string | null> {
  try {
    return (await client.getImage(tag).inspect()).Id;
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw engineError(`looking up image ${tag}`, err);
  }
}

/** true when the registry base was pulled; false (having said why) when no registry answers. */
async function pullBase(client: Docker, say: (line: string) => void): Promise<boolean> {
  try {
    const stream = await client.pull(REGISTRY_BASE);
    await followProgress(client, stream, `pulling ${REGISTRY_BASE}`, () => {});
    return true;
  } catch (err) {
    say(`Cannot pull ${REGISTRY_BASE} (${errorMessage(err).split('\n')[0]}); taking the offline path.`);
    return false;
  }
}
