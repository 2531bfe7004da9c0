import { describe, expect, it } from 'vitest';
import { estimateWeightBytes, orderBySize } from '../../src/discovery/order.js';
import { bitsPerWeight, fileTypeName } from '../../src/discovery/quant.js';

describe('bitsPerWeight', () => {
  it('knows the common llama.cpp types, their aliases and MLX bit widths', () => {
    expect(bitsPerWeight('Q4_K_M')).toBeCloseTo(4.9, 1);
    expect(bitsPerWeight('q4_k')).toBe(bitsPerWeight('Q4_K_M'));
    expect(bitsPerWeight('Q6_K')).toBeCloseTo(6.56, 1);
    expect(bitsPerWeight('Q8_0')).toBeCloseTo(8.5, 1);
    expect(bitsPerWeight('F16')).toBe(16);
    expect(bitsPerWeight('4BIT')).toBe(4.5);
  });

  it('orders the k-quants by size', () => {
    const ladder = ['Q2_K', 'Q3_K_M', 'Q4_K_M', 'Q5_K_M', 'Q6_K', 'Q8_0', 'F16'].map(
      (q) => bitsPerWeight(q) ?? 0,
    );
    expect([...ladder].sort((a, b) => a - b)).toEqual(ladder);
  });

  it('returns null for what it does not know', () => {
    expect(bitsPerWeight('Q4_K_XL')).toBeNull();
    expect(bitsPerWeight(null)).toBeNull();
  });
});

describe('fileTypeName', () => {
  it('maps the llama_ftype enum', () => {
    expect(fileTypeName(0)).toBe('F32');
    expect(fileTypeName(1)).toBe('F16');
    expect(fileTypeName(7)).toBe('Q8_0');
    expect(fileTypeName(15)).toBe('Q4_K_M');
    expect(fileTypeName(18)).toBe('Q6_K');
    expect(fileTypeName(30)).toBe('IQ4_XS');
    expect(fileTypeName(32)).toBe('BF16');
    expect(fileTypeName(38)).toBe('MXFP4_MOE');
    expect(fileTypeName(4)).toBeNull(); // retired
    expect(fileTypeName(1024)).toBeNull(); // LLAMA_FTYPE_GUESSED: not in the file
  });
});

describe('estimateWeightBytes', () => {
  it('prefers the file size, then the server-reported size, then parameters × bits per weight', () => {
    expect(estimateWeightBytes({ fileSizeBytes: 123, parameterCount: 8e9, fileType: 'Q4_K_M' })).toEqual({
      bytes: 123,
      source: 'file',
    });
    expect(estimateWeightBytes({ weightBytes: 5e9, weightSource: 'server', parameters: 8 })).toEqual({
      bytes: 5e9,
      source: 'server',
    });
    expect(estimateWeightBytes({ weightBytes: null, parameters: 8, quantization: 'Q8_0' })).toEqual({
      bytes: Math.round((8e9 * 8.51) / 8),
      source: 'estimate',
    });
  });

  it('is null when parameters or quantization are unknown', () => {
    expect(estimateWeightBytes({ parameters: 8, quantization: null })).toBeNull();
    expect(estimateWeightBytes({ parameters: null, quantization: 'Q4_K_M' })).toBeNull();
  });
});

describe('orderBySize', () => {
  it('puts the smallest first, unknown sizes last, and equal sizes by name', () => {
    const models = [
      { name: 'unknown-b', parameters: null, quantization: null },
      { name: 'qwen3:8b', weightBytes: 5.2e9 },
      { name: 'unknown-a', parameters: 4, quantization: 'Q4_K_XL' },
      { name: 'qwen3:4b-q8_0', parameters: 4, quantization: 'Q8_0' },
      { name: 'b-same', weightBytes: 1e9 },
      { name: 'a-same', weightBytes: 1e9 },
    ];
    expect(orderBySize(models).map((m) => m.name)).toEqual([
      'a-same',
      'b-same',
      'qwen3:4b-q8_0',
      'qwen3:8b',
      'unknown-a',
      'unknown-b',
    ]);
  });

  it('counts every expert of a MoE model: total, not active, parameters', () => {
    const moe = { name: 'qwen3:30b-a3b', parameters: 30, quantization: 'Q4_K_M' };
    const dense = { name: 'qwen3:8b', parameters: 8, quantization: 'Q4_K_M' };
    expect(orderBySize([moe, dense]).map((m) => m.name)).toEqual(['qwen3:8b', 'qwen3:30b-a3b']);
  });
});
