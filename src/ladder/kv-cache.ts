/**
 * What a rung should take in memory before it runs, to order the rungs: the model file plus its KV
 * cache at the rung's context and cache type. Only an estimate (compute buffers and the server's own
 * overhead are left out); what a rung took is measured while it runs (group-memory.ts).
 */
import { type KvShape, readGgufHeader } from '../discovery/gguf.js';
import { type CacheType, cacheBytesPerElement } from './rung-config.js';

/** K and V for every layer and every position of the context; f16 when the cache type is the server's default. */
export function kvCacheBytes(shape: KvShape, ctx: number, cacheType: CacheType | null): number {
  const elements = shape.layers * ctx * shape.kvHeads * (shape.keyLength + shape.valueLength);
  return Math.round(elements * cacheBytesPerElement(cacheType ?? 'f16'));
}

/** Each file's attention shape from its header; null for a file whose header says too little (or cannot be read again). */
export async function readKvShapes(paths: readonly string[]): Promise<Map<string, KvShape | null>> {
  const shapes = new Map<string, KvShape | null>();
  for (const path of paths)
    shapes.set(
      path,
      await readGgufHeader(path).then(
        (h) => h.kvShape,
        () => null,
      ),
    );
  return shapes;
}
