/** Turns what a server reported about a model into a DiscoveredModel, filling gaps from its name. */
import { normalizeQuantization, parseModelName } from './model-name.js';
import { estimateWeightBytes } from './order.js';
import type { DiscoveredModel, ServerKind } from './types.js';

/** Values as a server reported them; null or absent when it did not. */
export interface Reported {
  name: string;
  kind: ServerKind;
  family?: string | null;
  /** Billions. */
  parameters?: number | null;
  quantization?: string | null;
  weightBytes?: number | null;
  contextLength?: number | null;
  toolSupport?: boolean | null;
}

export function modelRecord(r: Reported): DiscoveredModel {
  const byName = parseModelName(r.name);
  const reportedQuant = normalizeQuantization(r.quantization ?? null);
  const quantization = reportedQuant === 'UNKNOWN' ? null : reportedQuant;
  const parameters = r.parameters ?? null;
  const known = {
    parameters: parameters ?? byName.parameters,
    quantization: quantization ?? byName.quantization,
  };
  const weight = estimateWeightBytes({
    ...known,
    weightBytes: r.weightBytes ?? null,
    weightSource: 'server',
  });
  return {
    name: r.name,
    kind: r.kind,
    family: r.family ?? byName.family,
    parameters: known.parameters,
    activeParameters: byName.activeParameters,
    effectiveParameters: byName.effectiveParameters,
    quantization: known.quantization,
    weightBytes: weight?.bytes ?? null,
    weightSource: weight?.source ?? null,
    contextLength: r.contextLength ?? null,
    toolSupport: r.toolSupport ?? null,
    sources: {
      parameters: parameters !== null ? 'server' : byName.parameters !== null ? 'name' : null,
      quantization: quantization !== null ? 'server' : byName.quantization !== null ? 'name' : null,
      contextLength: r.contextLength !== undefined && r.contextLength !== null ? 'server' : null,
    },
  };
}
