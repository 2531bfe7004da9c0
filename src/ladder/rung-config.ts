/**
 * A rung's server configuration (`--ctx`, `--cache-type`): the context size and the KV-cache type a
 * `--server-cmd` server is started with. The ladder's rungs are the product of the model files and
 * these values; a dimension not asked for is null (the server's own default, not recorded as a value).
 */
import { UsageError } from '../util/errors.js';

export interface RungConfig {
  /** `{ctx}`: tokens of context; null without `--ctx`. */
  ctx: number | null;
  /** `{cache_type}`: the KV cache's element type (llama.cpp's `--cache-type-k/-v` names); null without `--cache-type`. */
  cacheType: CacheType | null;
}

/**
 * Bytes per cached element of each type llama-server takes for `--cache-type-k/-v`: the quantized
 * ones are 32-element blocks (q8_0: 32 bytes + a 2-byte scale, so 34/32).
 */
const BYTES_PER_ELEMENT = {
  f32: 4,
  f16: 2,
  bf16: 2,
  q8_0: 34 / 32,
  q5_1: 24 / 32,
  q5_0: 22 / 32,
  q4_1: 20 / 32,
  q4_0: 18 / 32,
  iq4_nl: 18 / 32,
} as const;

export type CacheType = keyof typeof BYTES_PER_ELEMENT;

export function cacheBytesPerElement(type: CacheType): number {
  return BYTES_PER_ELEMENT[type];
}

/** `--ctx 4096,8192`: whole numbers of tokens, at least 256 (below that no task's prompt fits). */
export function parseCtxList(text: string): number[] {
  const values = listOf(text, '--ctx').map((v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 256)
      throw new UsageError(`--ctx takes context sizes in tokens (whole numbers, at least 256), got "${v}"`);
    return n;
  });
  return [...new Set(values)];
}

/** `--cache-type f16,q8_0`: names llama-server knows. */
export function parseCacheTypes(text: string): CacheType[] {
  const values = listOf(text, '--cache-type').map((v) => {
    const type = v.toLowerCase();
    if (!Object.hasOwn(BYTES_PER_ELEMENT, type))
      throw new UsageError(
        `--cache-type "${v}" is not a KV-cache type; use ${Object.keys(BYTES_PER_ELEMENT).join(', ')}`,
      );
    return type as CacheType;
  });
  return [...new Set(values)];
}

/** Every combination, context first; one null config when neither was asked for. */
export function rungConfigs(ctx: readonly number[], cacheTypes: readonly CacheType[]): RungConfig[] {
  const ctxs = ctx.length === 0 ? [null] : ctx;
  const types = cacheTypes.length === 0 ? [null] : cacheTypes;
  return ctxs.flatMap((c) => types.map((cacheType) => ({ ctx: c, cacheType })));
}

/** `ctx 8192, KV q8_0`; `` when nothing was asked for. */
export function describeConfig(c: RungConfig): string {
  return [c.ctx === null ? null : `ctx ${c.ctx}`, c.cacheType === null ? null : `KV ${c.cacheType}`]
    .filter((p) => p !== null)
    .join(', ');
}

/** `ctx8192-kv-q8_0`: for labels and file names; `` when nothing was asked for. */
export function configSlug(c: RungConfig): string {
  return [c.ctx === null ? null : `ctx${c.ctx}`, c.cacheType === null ? null : `kv-${c.cacheType}`]
    .filter((p) => p !== null)
    .join('-');
}

function listOf(text: string, option: string): string[] {
  const values = text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (values.length === 0) throw new UsageError(`${option} needs at least one value`);
  return values;
}
