/**
 * The image's inputs (the top-level Dockerfile and everything under sandbox/) and their hash,
 * which names the image: change any input and the tag changes, so the next run rebuilds.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { sha256 } from '../../util/hash.js';
import { packageRoot } from '../../util/package-root.js';

const IMAGE_REPO = 'agent-bench-sandbox';
const BASE_REPO = 'agent-bench-base';
export const REGISTRY_BASE = 'debian:bookworm-slim';

export interface InputFile {
  /** Path relative to the context root, with '/' separators. */
  path: string;
  content: Buffer;
  mode: number;
}

export async function imageInputs(root: string = packageRoot()): Promise<InputFile[]> {
  const paths = ['Dockerfile', ...(await listFiles(root, join(root, 'sandbox')))];
  const files: InputFile[] = [];
  for (const path of paths.sort()) {
    const abs = join(root, path);
    files.push({ path, content: await readFile(abs), mode: (await stat(abs)).mode & 0o777 });
  }
  return files;
}

async function listFiles(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(root, abs)));
    else if (entry.isFile()) out.push(relative(root, abs).split('\\').join('/'));
  }
  return out;
}

/** 16 hex digits over path, executable bit and content of each file. */
export function hashInputs(files: InputFile[]): string {
  const lines = files.map((f) => `${f.path}\0${f.mode & 0o111 ? 'x' : '-'}\0${sha256(f.content)}\n`);
  return sha256(lines.join('')).slice(0, 16);
}

/** Tag of the sandbox image built from these inputs. */
export function imageTag(files: InputFile[]): string {
  return `${IMAGE_REPO}:${hashInputs(files)}`;
}

/** Tag of the offline base: only the package list and the script that builds it matter. */
export function baseTag(files: InputFile[]): string {
  const relevant = files.filter(
    (f) => f.path === 'sandbox/packages.txt' || f.path === 'sandbox/build-offline-base.sh',
  );
  return `${BASE_REPO}:${hashInputs(relevant)}`;
}
