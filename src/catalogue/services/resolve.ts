/**
 * Declared services made runnable: each `build` folder checked to be inside the task's folder and
 * to hold its Dockerfile, hashed (its built image's cache key) and its Dockerfile rewritten for
 * the classic builder as a Harbor task's own is, on `--base-image` when given; the whole set
 * checked as a pod (names, ports, dependencies) and put in start order. Every problem is a line.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { podOrder } from '../../sandbox/services/order.js';
import type { HarborImageSource, ServiceDecl, ServiceSpec } from '../../sandbox/types.js';
import { forClassicBuilder } from '../harbor/classic-dockerfile.js';
import { dockerfileFacts, onBaseImage } from '../harbor/dockerfile.js';
import { DockerfileSyntaxError } from '../harbor/dockerfile-parse.js';

export interface ResolveOptions {
  /** The folder build contexts are relative to (a Harbor task's environment/, a native task's own folder). */
  root: string;
  /** How messages name root (`environment/`, ``). */
  rootName: string;
  /** `--base-image`: every sidecar Dockerfile's FROM set to this local image. */
  baseImage?: string;
  buildTimeoutSec: number;
}

export function resolveServices(
  decls: readonly ServiceDecl[],
  o: ResolveOptions,
  problems: string[],
): ServiceSpec[] {
  const specs: ServiceSpec[] = [];
  for (const d of decls) {
    const image = imageSource(d, o, problems);
    if (image !== null) specs.push({ ...d, image });
  }
  if (problems.length > 0) return [];
  const ordered = podOrder(specs);
  if (!ordered.ok) {
    problems.push(ordered.problem);
    return [];
  }
  return ordered.order;
}

function imageSource(d: ServiceDecl, o: ResolveOptions, problems: string[]): HarborImageSource | null {
  if (d.image.kind === 'image') return { kind: 'prebuilt', image: d.image.image };
  const contextDir = resolve(o.root, d.image.context);
  const named = `${o.rootName}${relative(o.root, contextDir) || '.'}`;
  if (contextDir !== o.root && !contextDir.startsWith(`${o.root}${sep}`)) {
    problems.push(
      `service "${d.name}": build context ${d.image.context} is outside ${o.rootName || 'the task folder'}`,
    );
    return null;
  }
  const file = join(contextDir, d.image.dockerfile);
  if (!existsSync(file)) {
    problems.push(`service "${d.name}": ${named}/${d.image.dockerfile} not found`);
    return null;
  }
  const text = readFileSync(file, 'utf8');
  let from: string;
  try {
    from = dockerfileFacts(text)?.baseImage ?? '';
  } catch (err) {
    if (!(err instanceof DockerfileSyntaxError)) throw err;
    problems.push(`service "${d.name}": ${named}/${d.image.dockerfile} ${err.message}`);
    return null;
  }
  if (from === '') {
    problems.push(`service "${d.name}": ${named}/${d.image.dockerfile} has no FROM`);
    return null;
  }
  return {
    kind: 'dockerfile',
    contextDir,
    contextDigest: contextDigest(contextDir),
    dockerfile: forClassicBuilder(o.baseImage === undefined ? text : onBaseImage(text, o.baseImage)),
    dockerfileName: `${named}/${d.image.dockerfile}`,
    from,
    ...(o.baseImage === undefined ? {} : { baseImage: o.baseImage }),
    buildTimeoutSec: o.buildTimeoutSec,
    network: false,
  };
}

/** Paths, executable bits and contents of the context's regular files (the task's loader refused links out). */
export function contextDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      const st = lstatSync(path);
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) {
        const bytes = readFileSync(path);
        hash
          .update(`${relative(dir, path)}\0${(st.mode & 0o111) !== 0 ? 'x' : '-'}\0${bytes.length}\0`)
          .update(bytes);
      }
    }
  };
  walk(dir);
  return hash.digest('hex');
}
