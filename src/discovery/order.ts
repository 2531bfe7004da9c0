/**
 * Model size for ordering candidates smallest first (the ladder tries the smallest model that might
 * pass before larger ones). Every expert of a MoE model is loaded, so total parameters count, not active.
 */
import { bitsPerWeight } from './quant.js';
import type { WeightSource } from './types.js';

/** Fits both a DiscoveredModel and a GgufHeader. */
export interface SizeInputs {
  weightBytes?: number | null;
  weightSource?: WeightSource | null;
  /** A GGUF file's size: the weights as they will be loaded. */
  fileSizeBytes?: number;
  /** Billions. */
  parameters?: number | null;
  /** A raw count (GGUF header). */
  parameterCount?: number | null;
  quantization?: string | null;
  /** GGUF file type name. */
  fileType?: string | null;
}

export interface WeightEstimate {
  bytes: number;
  source: WeightSource;
}

/** File size for a GGUF file, else the size a server reported, else parameters × bits per weight; null when none is known. */
export function estimateWeightBytes(info: SizeInputs): WeightEstimate | null {
  if (info.fileSizeBytes !== undefined) return { bytes: info.fileSizeBytes, source: 'file' };
  if (info.weightBytes !== undefined && info.weightBytes !== null) {
    return { bytes: info.weightBytes, source: info.weightSource ?? 'server' };
  }
  const params =
    info.parameters !== undefined && info.parameters !== null
      ? info.parameters * 1e9
      : (info.parameterCount ?? null);
  const bpw = bitsPerWeight(info.quantization ?? info.fileType ?? null);
  if (params === null || bpw === null) return null;
  return { bytes: Math.round((params * bpw) / 8), source: 'estimate' };
}

/** Smallest first; unknown sizes last; equal sizes by name; otherwise the input order (stable). */
export function orderBySize<T extends SizeInputs & { name: string }>(models: readonly T[]): T[] {
  const keyed = models.map((model) => ({ model, bytes: estimateWeightBytes(model)?.bytes ?? null }));
  keyed.sort((a, b) => {
    if (a.bytes !== b.bytes) {
      if (a.bytes === null) return 1;
      if (b.bytes === null) return -1;
      return a.bytes - b.bytes;
    }
    return a.model.name < b.model.name ? -1 : a.model.name > b.model.name ? 1 : 0;
  });
  return keyed.map((k) => k.model);
}
