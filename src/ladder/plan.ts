/** The ladder's rungs: candidate models, smallest estimated weight first, unknown sizes last. */
import { estimateWeightBytes, orderBySize } from '../discovery/order.js';
import type { DiscoveredModel } from '../discovery/types.js';
import { shortModelNames } from '../results/short-model-name.js';
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
