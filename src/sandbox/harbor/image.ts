/**
 * A Harbor task's own image: its environment/Dockerfile built with environment/ as the build
 * context, through the engine API, tagged by what decides the image (the context's digest and the
 * `--base-image` that replaced its FROM), and built once: an existing tag is reused. The build has
 * no network unless task.toml allows internet, so a Dockerfile's RUN steps cannot fetch anything
 * the task did not declare it needs. The engine's classic builder builds it (its BuildKit syntax
 * rewritten by the task's loader), so any engine does; a step that fails is the task's problem
 * (a UsageError naming the step and its output's tail), never the engine's.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { pack } from 'tar-stream';
import { InfraError, UsageError } from '../../util/errors.js';
import { engineError, statusOf } from '../docker/engine.js';
import { followProgress } from '../image/progress.js';
import type { ClassicDockerfile, ContextFile, HarborEnvironmentSpec, HarborImageSource } from '../types.js';
import { BuildLog } from './build-log.js';

type DockerfileSource = Extract<HarborImageSource, { kind: 'dockerfile' }>;

const REPOSITORY = 'agent-bench-harbor';

/** `repository:<task id>-<key>`, the id lowercased and made a valid tag. */
export function harborTag(repository: string, id: string, key: string): string {
  return `${repository}:${id.toLowerCase().replace(/[^a-z0-9_.-]/g, '-')}-${key.slice(0, 16)}`;
}

/** The tag an image of this task (on this base) is cached under. */
export function harborImageTag(id: string, contextDigest: string, baseImage: string | undefined): string {
  const key = createHash('sha256')
    .update(`${contextDigest}\0${baseImage ?? ''}`)
    .digest('hex');
  return harborTag(REPOSITORY, id, key);
}

/** The image the task's trials start from: task.toml's docker_image, or its Dockerfile built (once). */
export async function ensureHarborImage(
  client: Docker,
  spec: HarborEnvironmentSpec,
  onProgress?: (line: string) => void,
): Promise<string> {
  const source = spec.image;
  if (source.kind === 'prebuilt') {
    if (!(await imageExists(client, source.image)))
      throw new InfraError(
        `${spec.id}: its image ${source.image} (task.toml environment.docker_image) is not on this machine; pull it (docker pull ${source.image}) first`,
      );
    return source.image;
  }
  return ensureBuiltImage(client, spec.id, source, {}, onProgress);
}

/**
 * A Dockerfile's image built once (a sidecar's too, under the id `<task>-<service>`), cached by its
 * context, its base image and the build arguments.
 */
export async function ensureBuiltImage(
  client: Docker,
  id: string,
  source: DockerfileSource,
  buildArgs: Record<string, string>,
  onProgress?: (line: string) => void,
): Promise<string> {
  const args = Object.entries(buildArgs).sort(([a], [b]) => a.localeCompare(b));
  const digest =
    args.length === 0
      ? source.contextDigest
      : createHash('sha256')
          .update(`${source.contextDigest}\0${JSON.stringify(args)}`)
          .digest('hex');
  const tag = harborImageTag(id, digest, source.baseImage);
  if (await imageExists(client, tag)) return tag;
  const dockerfile = source.dockerfile;
  // Syntax the engine's builder lacks is the task's problem, said before any build starts.
  if (!dockerfile.ok) throw new UsageError(`${id}: ${dockerfile.problem}`);
  if (source.baseImage !== undefined && !(await imageExists(client, source.baseImage)))
    throw new UsageError(`--base-image ${source.baseImage}: no such image on this machine`);
  const notes = dockerfile.notes.length === 0 ? '' : ` (${dockerfile.notes.join('; ')})`;
  onProgress?.(`building ${tag} for Harbor task ${id}${notes}`);
  await buildImage(client, id, { ...source, dockerfile }, tag, buildArgs);
  return tag;
}

type ClassicSource = DockerfileSource & { dockerfile: Extract<ClassicDockerfile, { ok: true }> };

/** The build from the task's context, stopped past task.toml's build timeout. */
async function buildImage(
  client: Docker,
  id: string,
  source: ClassicSource,
  tag: string,
  buildArgs: Record<string, string>,
): Promise<void> {
  const stream = await startBuild(client, await contextTar(source), tag, id, source.network, buildArgs);
  const limitSec = source.buildTimeoutSec;
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      // Dropping the stream makes the engine cancel the build.
      (stream as unknown as { destroy(): void }).destroy();
      reject(
        new InfraError(
          `${id}: building ${source.dockerfileName ?? 'environment/Dockerfile'} took longer than ${limitSec} s (task.toml environment.build_timeout_sec)`,
        ),
      );
    }, limitSec * 1000);
  });
  const log = new BuildLog();
  try {
    await Promise.race([
      followProgress(client, stream, `building the image of Harbor task ${id}`, log.onEvent),
      late,
    ]);
  } catch (err) {
    throw timedOut ? err : buildFailure(id, source, log, err);
  } finally {
    clearTimeout(timer);
  }
}

/** A build of a task's image started on the engine (labelled with the task), its progress stream. */
async function startBuild(
  client: Docker,
  context: Buffer,
  tag: string,
  id: string,
  network: boolean,
  buildArgs: Record<string, string>,
): Promise<NodeJS.ReadableStream> {
  try {
    return await client.buildImage(Readable.from([context]), {
      t: tag,
      ...(Object.keys(buildArgs).length === 0 ? {} : { buildargs: buildArgs }),
      rm: true,
      forcerm: true,
      labels: { 'agent-bench.harbor-task': id },
      ...(network ? {} : { networkmode: 'none' }),
    });
  } catch (err) {
    throw engineError(`building ${tag}`, err);
  }
}

/**
 * A base the engine cannot pull names the way out; a step that failed is the task's Dockerfile's
 * problem, said with the step and the tail of its output; a stream to the engine that broke is the engine's.
 */
function buildFailure(id: string, source: DockerfileSource, log: BuildLog, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  if (!log.failed)
    return new InfraError(
      `${id}: building ${source.dockerfileName ?? 'environment/Dockerfile'}: ${message}`,
      { cause: err },
    );
  if (
    source.baseImage === undefined &&
    log.atFrom &&
    /pull access denied|not found|no such host|dial tcp|lookup |failed to resolve|manifest unknown|TLS handshake|i\/o timeout|network is unreachable/i.test(
      message,
    )
  )
    return new InfraError(
      `${id}: its base image ${source.from} cannot be pulled (offline?); build on a local image with --base-image IMAGE (agent-bench's sandbox image works for Python tasks)`,
      { cause: err },
    );
  const error = message.replace(/^building the image of Harbor task \S+ failed: /, '');
  const output = log.tail();
  // Offline builds: a step that fetched packages failed for want of the network, not for a fault of
  // the Dockerfile. Say so in one line, with the way out.
  if (!source.network && OFFLINE_FETCH.test(`${output}\n${error}`))
    return new UsageError(
      `${id}: ${source.dockerfileName ?? 'environment/Dockerfile'} needs the network to build${log.currentStep === null ? '' : ` (${oneLine(log.currentStep).slice(0, 80)})`}, and builds here have none; build it on a local image that already has what it fetches with --base-image IMAGE`,
      { cause: err },
    );
  return new UsageError(
    `${id}: ${source.dockerfileName ?? 'environment/Dockerfile'} failed to build${log.currentStep === null ? '' : ` at ${log.currentStep}`}: ${oneLine(error)}${output === '' ? '' : `; its output ended: ${output}`}`,
    { cause: err },
  );
}

/** What pip, apt, npm, curl and wget print when they cannot reach the network. */
const OFFLINE_FETCH =
  /Temporary failure in name resolution|Could not resolve|Network is unreachable|Failed to establish a new connection|No matching distribution found|getaddrinfo|EAI_AGAIN|ENOTFOUND|Could not connect to|Failed to fetch http|the network is off in this sandbox/i;

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

/**
 * The context as a tar, its Dockerfile replaced and the rewrite's files added (a .dockerignore made
 * to let them through); a fixed mtime keeps the build cache on content.
 */
async function contextTar(source: ClassicSource): Promise<Buffer> {
  const root = source.contextDir;
  const { text, files } = source.dockerfile;
  const p = pack();
  const mtime = new Date(0);
  for (const file of filesUnder(root)) {
    const rel = relative(root, file);
    const mode = (statSync(file).mode & 0o111) !== 0 ? 0o755 : 0o644;
    let content = rel === 'Dockerfile' ? Buffer.from(text) : readFileSync(file);
    if (rel === '.dockerignore' && files.length > 0)
      content = Buffer.concat([content, Buffer.from(`\n${[...new Set(files.map(unignored))].join('\n')}\n`)]);
    p.entry({ name: rel, mode, mtime }, content);
  }
  for (const f of files) p.entry({ name: f.path, mode: f.mode, mtime }, f.content);
  p.finalize();
  return collect(p);
}

/** The .dockerignore line that keeps a generated file's top folder in the context. */
function unignored(file: ContextFile): string {
  const top = file.path.split('/')[0] ?? file.path;
  return `!${top}\n!${top}/**`;
}

/** A finished tar pack's bytes. */
async function collect(p: AsyncIterable<unknown>): Promise<Buffer> {
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
