/** The ladder's rungs: candidate models, smallest estimated weight first, unknown sizes last. */
import { basename } from 'node:path';
import { estimateWeightBytes, orderBySize } from '../discovery/order.js';
import type { DiscoveredModel } from '../discovery/types.js';
import type { LadderModel } from './types.js';

export function planLadder(models: readonly DiscoveredModel[]): LadderModel[] {
  return orderBySize(models).map((info) => ({
    id: info.name,
    label: modelLabel(info),
    info,
    size: estimateWeightBytes(info),
  }));
}

/** A GGUF file by its base name (without `.gguf` or a shard suffix); a server's model by its name. */
export function modelLabel(info: Pick<DiscoveredModel, 'name' | 'kind'>): string {
  if (info.kind !== 'gguf-file') return info.name;
  return basename(info.name)
    .replace(/-\d{5}-of-\d{5}\.gguf$/i, '')
    .replace(/\.gguf$/i, '');
}
