/** Lists the GGUF models in a folder tree from their headers (no model is loaded). */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { errorMessage, UsageError } from '../util/errors.js';
import { type GgufHeader, readGgufHeader } from './gguf.js';
import { parseModelName } from './model-name.js';
import type { DiscoveredModel } from './types.js';

/**
 * LM Studio keeps models at <root>/<publisher>/<repo>/<file>.gguf; a Hugging Face cache at
 * <hub>/models--<org>--<repo>/snapshots/<commit>/<file>.gguf, one more level if given its parent.
 */
const MAX_DEPTH = 5;
const SHARD = /-(\d{5})-of-(\d{5})\.gguf$/i;

export interface GgufListing {
  models: DiscoveredModel[];
  /** One line per file that could not be read. */
  problems: string[];
}

export async function listGgufDir(dir: string): Promise<GgufListing> {
  const files = (await findGgufFiles(dir, 0, new Set())).sort();
  const models: DiscoveredModel[] = [];
  const problems: string[] = [];
  for (const path of files) {
    const shard = SHARD.exec(path);
    // A split model is described by its first shard; its weight is every shard's size together.
    if (shard !== null && shard[1] !== '00001') continue;
    if (/^mmproj/i.test(basename(path))) continue;
    try {
      const header = await readGgufHeader(path);
      if (header.architecture === 'clip') continue;
      if (header.fileSizeBytes < header.minimumBytes) {
        problems.push(
          `${path}: truncated: ${header.fileSizeBytes} bytes of at least ${header.minimumBytes} (an unfinished download?)`,
        );
        continue;
      }
      const weightBytes = shard === null ? header.fileSizeBytes : await shardBytes(path, Number(shard[2]));
      models.push(fromHeader(path, header, weightBytes));
    } catch (err) {
      problems.push(`${path}: ${errorMessage(err)}`);
    }
  }
  return { models, problems };
}

function fromHeader(path: string, h: GgufHeader, weightBytes: number | null): DiscoveredModel {
  const byName = parseModelName(path);
  const byLabel = h.sizeLabel === null ? null : parseModelName(h.sizeLabel);
  const fileParams = h.parameterCount === null ? (byLabel?.parameters ?? null) : h.parameterCount / 1e9;
  return {
    name: path,
    kind: 'gguf-file',
    family: h.architecture ?? byName.family,
    parameters: fileParams ?? byName.parameters,
    activeParameters: byLabel?.activeParameters ?? byName.activeParameters,
    effectiveParameters: byLabel?.effectiveParameters ?? byName.effectiveParameters,
    quantization: h.fileType ?? byName.quantization,
    weightBytes,
    weightSource: weightBytes === null ? null : 'file',
    contextLength: h.contextLength,
    toolSupport: null,
    sources: {
      parameters: fileParams !== null ? 'file' : byName.parameters !== null ? 'name' : null,
      quantization: h.fileType !== null ? 'file' : byName.quantization !== null ? 'name' : null,
      contextLength: h.contextLength !== null ? 'file' : null,
    },
  };
}

/** Sum of all shard sizes; null when a shard is missing (the size would be a guess). */
async function shardBytes(firstShard: string, count: number): Promise<number | null> {
  let total = 0;
  for (let i = 1; i <= count; i++) {
    const path = firstShard.replace(
      SHARD,
      `-${String(i).padStart(5, '0')}-of-${String(count).padStart(5, '0')}.gguf`,
    );
    try {
      total += (await stat(path)).size;
    } catch {
      return null;
    }
  }
  return total;
}

/**
 * Symlinks are followed (a Hugging Face cache's snapshot files all link into blobs/); the link's
 * path is what is listed, since its name is the model's. `visited` (real paths of folders) stops
 * link cycles.
 */
async function findGgufFiles(dir: string, depth: number, visited: Set<string>): Promise<string[]> {
  let entries: Dirent[];
  try {
    const real = await realpath(dir);
    if (visited.has(real)) return [];
    visited.add(real);
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (depth === 0) throw new UsageError(`cannot read GGUF folder: ${errorMessage(err)}`, { cause: err });
    return [];
  }
  const found: string[] = [];
  for (const e of entries) {
    const path = join(dir, e.name);
    const kind = e.isSymbolicLink()
      ? await linkTarget(path)
      : e.isFile()
        ? 'file'
        : e.isDirectory()
          ? 'dir'
          : null;
    if (kind === 'file' && /\.gguf$/i.test(e.name)) found.push(path);
    else if (kind === 'dir' && depth < MAX_DEPTH && !e.name.startsWith('.')) {
      found.push(...(await findGgufFiles(path, depth + 1, visited)));
    }
  }
  return found;
}

/** What a symlink points at; null when it dangles. */
async function linkTarget(path: string): Promise<'file' | 'dir' | null> {
  try {
    const s = await stat(path);
    return s.isFile() ? 'file' : s.isDirectory() ? 'dir' : null;
  } catch {
    return null;
  }
}
