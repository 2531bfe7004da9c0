/** The ladder's rungs: candidate models, smallest estimated weight first, unknown sizes last. */
import type { KvShape } from '../discovery/gguf.js';
import { estimateWeightBytes, orderBySize } from '../discovery/order.js';
import type { DiscoveredModel } from '../discovery/types.js';
import { shortModelNames } from '../results/short-model-name.js';
import { kvCacheBytes } from './kv-cache.js';
import { configSlug, type RungConfig } from './rung-config.js';
import type { LadderModel } from './types.js';

/** Each rung is labelled by its short name (a GGUF path's file stem), as the reports show it. */
export function planLadder(models: readonly DiscoveredModel[]): LadderModel[] {
  const labels = shortModelNames(models.map((m) => m.name));
  return orderBySize(models).map((info) => ({
    id: info.name,
    label: labels.get(info.name) ?? info.name,
    info,
    size: estimateWeightBytes(info),
  }));
}

/**
 * `--ctx`/`--cache-type`: one rung per model file and configuration, ordered by the memory each
 * should take (file + KV cache, estimatedMemoryBytes) — the only order known before the rungs run;
 * their measured peaks come after. Unknown estimates last; ties keep the files' order, then the
 * configurations' (smaller context first, as given).
 */
export function planConfigLadder(
  models: readonly DiscoveredModel[],
  configs: readonly RungConfig[],
  shapes: ReadonlyMap<string, KvShape | null>,
): LadderModel[] {
  const rungs = planLadder(models).flatMap((file) =>
    configs.map((config): LadderModel => {
      const shape = shapes.get(file.id) ?? null;
      const kvBytes =
        shape === null || config.ctx === null ? null : kvCacheBytes(shape, config.ctx, config.cacheType);
      const slug = configSlug(config);
      return {
        ...file,
        label: slug === '' ? file.label : `${file.label}@${slug}`,
        config: { ...config, fileLabel: file.label, kvBytes },
      };
    }),
  );
  const keyed = rungs.map((rung, i) => ({ rung, i, bytes: estimatedMemoryBytes(rung) }));
  keyed.sort((a, b) => {
    if (a.bytes === b.bytes) return a.i - b.i;
    if (a.bytes === null) return 1;
    if (b.bytes === null) return -1;
    return a.bytes - b.bytes;
  });
  return keyed.map((k) => k.rung);
}

/** The weights plus the rung's KV cache when it is known; null without a size. */
export function estimatedMemoryBytes(model: Pick<LadderModel, 'size' | 'config'>): number | null {
  if (model.size === null) return null;
  return model.size.bytes + (model.config?.kvBytes ?? 0);
}
