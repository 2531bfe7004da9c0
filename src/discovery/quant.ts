/**
 * Quantization facts: average bits per weight of each llama.cpp file type, and the GGUF
 * `general.file_type` enum (llama.h `enum llama_ftype`).
 *
 * Bits per weight are whole-file averages, so they include the tensors a quant mix keeps at higher
 * precision (embeddings, output). Source: llama.cpp tools/quantize/quantize.cpp QUANT_OPTIONS. Where it
 * gives a file size for Llama-3-8B (8.03e9 parameters), bpw = GiB × 2^33 / 8.03e9; where it gives bpw
 * directly (IQ and TQ types), that figure is used. Block formats without a table entry use their block
 * layout (MXFP4: 32 × 4-bit + an 8-bit scale = 4.25; NVFP4: 16 × 4-bit + an 8-bit scale = 4.5; MLX n-bit:
 * n + a 16-bit scale and bias per 64 weights = n + 0.5). Approximate by design: good for ordering
 * candidates and estimating memory, not for accounting.
 */

const BITS_PER_WEIGHT: Readonly<Record<string, number>> = {
  F32: 32,
  F16: 16,
  BF16: 16,
  FP8: 8,
  Q8_0: 8.51,
  Q6_K: 6.57,
  Q5_K_M: 5.7,
  Q5_K_S: 5.57,
  Q5_1: 6.04,
  Q5_0: 5.57,
  Q4_K_M: 4.9,
  Q4_K_S: 4.67,
  Q4_1: 5.11,
  Q4_0: 4.64,
  Q3_K_L: 4.31,
  Q3_K_M: 4.0,
  Q3_K_S: 3.65,
  Q2_K: 3.17,
  Q2_K_S: 3.17,
  IQ4_NL: 4.5,
  IQ4_XS: 4.25,
  IQ3_M: 3.66,
  IQ3_S: 3.44,
  IQ3_XS: 3.3,
  IQ3_XXS: 3.06,
  IQ2_M: 2.7,
  IQ2_S: 2.5,
  IQ2_XS: 2.31,
  IQ2_XXS: 2.06,
  IQ1_M: 1.75,
  IQ1_S: 1.56,
  TQ2_0: 2.06,
  TQ1_0: 1.69,
  Q2_0: 2.25,
  Q1_0: 1.125,
  MXFP4: 4.25,
  MXFP4_MOE: 4.25,
  NVFP4: 4.5,
};

/** llama-quantize's aliases: the bare k-quant name means its _M mix. */
const ALIASES: Readonly<Record<string, string>> = { Q3_K: 'Q3_K_M', Q4_K: 'Q4_K_M', Q5_K: 'Q5_K_M' };

/** Approximate average bits per weight; null for a quantization this table does not know. */
export function bitsPerWeight(quantization: string | null): number | null {
  if (quantization === null) return null;
  const q = quantization.toUpperCase();
  const mlx = /^(\d{1,2})BIT$/.exec(q);
  if (mlx !== null) return Number(mlx[1]) + 0.5;
  return BITS_PER_WEIGHT[ALIASES[q] ?? q] ?? null;
}

/** `general.file_type` values, index = enum value; null marks values llama.cpp removed. */
// biome-ignore format: ten values a row keep the index readable
const FILE_TYPES: readonly (string | null)[] = [
  'F32', 'F16', 'Q4_0', 'Q4_1', null, null, null, 'Q8_0', 'Q5_0', 'Q5_1',
  'Q2_K', 'Q3_K_S', 'Q3_K_M', 'Q3_K_L', 'Q4_K_S', 'Q4_K_M', 'Q5_K_S', 'Q5_K_M', 'Q6_K', 'IQ2_XXS',
  'IQ2_XS', 'Q2_K_S', 'IQ3_XS', 'IQ3_XXS', 'IQ1_S', 'IQ4_NL', 'IQ3_S', 'IQ3_M', 'IQ2_S', 'IQ2_M',
  'IQ4_XS', 'IQ1_M', 'BF16', null, null, null, 'TQ1_0', 'TQ2_0', 'MXFP4_MOE', 'NVFP4',
  'Q1_0', 'Q2_0',
];

/** The llama.cpp name of a `general.file_type` value; null for unknown or retired values. */
export function fileTypeName(id: number): string | null {
  return FILE_TYPES[id] ?? null;
}
