/**
 * A Harbor task's image: its environment/Dockerfile built with environment/ as the build context,
 * through the engine API, tagged by what decides the image (the context's digest and the
 * `--base-image` that replaced its FROM), and built once: an existing tag is reused. The build has
 * no network unless task.toml allows internet, so a Dockerfile's RUN steps cannot fetch anything
 * the task did not declare it needs.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { engineError, statusOf } from '../../../sandbox/docker/engine.js';
import { followProgress } from '../../../sandbox/image/progress.js';
import { InfraError, UsageError } from '../../../util/errors.js';
import { onBaseImage } from './dockerfile.js';
import { HARBOR_ENVIRONMENT, type HarborTask } from './load.js';

const REPOSITORY = 'agent-bench-harbor';

export interface HarborImageOptions {
  /** `--base-image`: every FROM naming an image is set to this one. */
  baseImage?: string;
  onProgress?: (line: string) => void;
}

/** The tag an image of this task (on this base) is cached under. */
export function harborImageTag(task: HarborTask, baseImage: string | undefined): string {
  const key = createHash('sha256')
    .update(`${task.contextDigest}\0${baseImage ?? ''}`)
    .digest('hex');
  return `${REPOSITORY}:${task.id.toLowerCase().replace(/[^a-z0-9_.-]/g, '-')}-${key.slice(0, 16)}`;
}

/** The image the task's trials start from: task.toml's docker_image, or its Dockerfile built (once). */
export async function ensureHarborImage(
  client: Docker,
  task: HarborTask,
  o: HarborImageOptions = {},
): Promise<string> {
  if (task.dockerfile === null) {
    const image = task.environment.dockerImage ?? '';
    if (!(await imageExists(client, image)))
      throw new InfraError(
        `${task.id}: its image ${image} (task.toml environment.docker_image) is not on this machine; pull it (docker pull ${image}) first`,
      );
    return image;
  }
  const tag = harborImageTag(task, o.baseImage);
  if (await imageExists(client, tag)) return tag;
  if (o.baseImage !== undefined && !(await imageExists(client, o.baseImage)))
    throw new UsageError(`--base-image ${o.baseImage}: no such image on this machine`);
  const dockerfile =
    o.baseImage === undefined ? task.dockerfile.text : onBaseImage(task.dockerfile.text, o.baseImage);
  o.onProgress?.(`building ${tag} for Harbor task ${task.id}`);
  let stream: NodeJS.ReadableStream;
  try {
    stream = await client.buildImage(Readable.from([await contextTar(task, dockerfile)]), {
      t: tag,
      rm: true,
      forcerm: true,
      labels: { 'agent-bench.harbor-task': task.id },
      ...(task.environment.allowInternet ? {} : { networkmode: 'none' }),
    });
  } catch (err) {
    throw engineError(`building ${tag}`, err);
  }
  const limitSec = task.environment.buildTimeoutSec;
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      // Dropping the stream makes the engine cancel the build.
      (stream as unknown as { destroy(): void }).destroy();
      reject(
        new InfraError(
          `${task.id}: building environment/Dockerfile took longer than ${limitSec} s (task.toml environment.build_timeout_sec)`,
        ),
      );
    }, limitSec * 1000);
  });
  try {
    await Promise.race([
      followProgress(client, stream, `building the image of Harbor task ${task.id}`, () => {}),
      late,
    ]);
  } catch (err) {
    throw timedOut ? err : buildFailure(task, o.baseImage, err);
  } finally {
    clearTimeout(timer);
  }
  return tag;
}

/** A base the engine cannot pull names the way out; any other failure is the task's Dockerfile's. */
function buildFailure(task: HarborTask, baseImage: string | undefined, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const from = task.dockerfile?.facts.baseImage ?? '';
  if (
    baseImage === undefined &&
    /pull access denied|not found|no such host|dial tcp|lookup |failed to resolve|manifest unknown|TLS handshake|i\/o timeout|network is unreachable/i.test(
      message,
    )
  )
    return new InfraError(
      `${task.id}: its base image ${from} cannot be pulled (offline?); build on a local image with --base-image IMAGE (agent-bench's sandbox image works for Python tasks)`,
      { cause: err },
    );
  return new InfraError(`${task.id}: building environment/Dockerfile failed: ${oneLine(message)}`, {
    cause: err,
  });
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 300 ? line : `${line.slice(0, 297)}...`;
}

async function imageExists(client: Docker, image: string): Promise<boolean> {
  try {
    await client.getImage(image).inspect();
    return true;
  } catch (err) {
    if (statusOf(err) === 404) return false;
    throw engineError(`inspecting image ${image}`, err);
  }
}

/** environment/ as a tar, its Dockerfile replaced by `dockerfile`; a fixed mtime keeps the build cache on content. */
async function contextTar(task: HarborTask, dockerfile: string): Promise<Buffer> {
  const root = join(task.dir, HARBOR_ENVIRONMENT);
  const p = pack();
  const mtime = new Date(0);
  for (const file of filesUnder(root)) {
    const rel = relative(root, file);
    const mode = (statSync(file).mode & 0o111) !== 0 ? 0o755 : 0o644;
    const content = rel === 'Dockerfile' ? Buffer.from(dockerfile) : readFileSync(file);
    p.entry({ name: rel, mode, mtime }, content);
  }
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of p) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Regular files only: the folder was walked (no links out of it) when the task was loaded. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(path));
    else if (e.isFile()) out.push(path);
  }
  return out;
}
