/**
 * `--model gguf:/path/model.gguf` names a model file run in-process instead of a server model.
 * The file is checked here, cheaply, so a wrong path fails in one line before the heavy runtime loads.
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../util/errors.js';

const GGUF_SPEC_PREFIX = 'gguf:';

export function isGgufModelSpec(spec: string): boolean {
  return spec.startsWith(GGUF_SPEC_PREFIX);
}

/** The absolute model path of a `gguf:` spec, resolved against `cwd`. */
export function parseGgufModelSpec(spec: string, cwd: string = process.cwd()): string {
  if (!isGgufModelSpec(spec))
    throw new UsageError(`not a gguf model spec (expected gguf:/path/model.gguf): ${spec}`);
  const path = spec.slice(GGUF_SPEC_PREFIX.length).trim();
  if (path === '')
    throw new UsageError('--model gguf: needs a file path, e.g. gguf:./models/qwen3-8b-q4_k_m.gguf');
  return resolve(cwd, path);
}

/** GGUF files start with the magic "GGUF" and a little-endian uint32 version (2 and 3 are loadable). */
export async function assertGgufFile(path: string): Promise<void> {
  let header: Buffer;
  try {
    const file = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(8), 0, 8, 0);
      header = buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : '';
    const why =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code || 'unreadable';
    throw new UsageError(`cannot read GGUF model ${path}: ${why}`, { cause: err });
  }
  if (header.length < 8 || header.toString('latin1', 0, 4) !== 'GGUF') {
    throw new UsageError(`${path} is not a GGUF model file (it does not start with the GGUF magic bytes)`);
  }
  const version = header.readUInt32LE(4);
  if (version !== 2 && version !== 3) {
    throw new UsageError(`${path} is GGUF version ${version}; only versions 2 and 3 can be loaded`);
  }
}
