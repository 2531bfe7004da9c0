import { describe, expect, it } from 'vitest';
import { normalizeQuantization, parseModelName, parseParameterSize } from '../../src/discovery/model-name.js';

type Row = [
  name: string,
  family: string | null,
  parameters: number | null,
  active: number | null,
  effective: number | null,
  quantization: string | null,
  qat: boolean,
];

// Real names as Ollama, LM Studio, Hugging Face and llama-server show them.
const NAMES: Row[] = [
  ['qwen3:8b', 'qwen3', 8, null, null, null, false],
  ['qwen3:30b-a3b-instruct-2507-q4_K_M', 'qwen3', 30, 3, null, 'Q4_K_M', false],
  ['gemma3n:e4b', 'gemma3n', null, null, 4, null, false],
  ['gemma3:27b-it-qat', 'gemma3', 27, null, null, null, true],
  ['llama3.2:3b-instruct-q8_0', 'llama3.2', 3, null, null, 'Q8_0', false],
  ['lmstudio-community/Qwen3-4B-GGUF/Qwen3-4B-Q6_K.gguf', 'qwen3', 4, null, null, 'Q6_K', false],
  ['Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf', 'meta-llama-3.1', 8, null, null, 'Q4_K_M', false],
  ['qwen2.5-coder-0.5b-instruct-fp16', 'qwen2.5-coder', 0.5, null, null, 'F16', false],
  ['mistral-small3.2:24b', 'mistral-small3.2', 24, null, null, null, false],
  ['gpt-oss:20b', 'gpt-oss', 20, null, null, null, false],
  ['phi4-mini:3.8b', 'phi4-mini', 3.8, null, null, null, false],
  ['smollm2:135m', 'smollm2', 0.135, null, null, null, false],
  ['qwen3:0.6b', 'qwen3', 0.6, null, null, null, false],
  ['llama3.1:8b-instruct-fp16', 'llama3.1', 8, null, null, 'F16', false],
  ['deepseek-r1:1.5b-qwen-distill-q4_K_M', 'deepseek-r1', 1.5, null, null, 'Q4_K_M', false],
  ['hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M', 'qwen3', 8, null, null, 'Q4_K_M', false],
  ['gemma-3n-E4B-it-Q4_K_M.gguf', 'gemma-3n', null, null, 4, 'Q4_K_M', false],
  ['gemma-3-270m-it-qat', 'gemma-3', 0.27, null, null, null, true],
  ['gemma-3-27b-it-qat-q4_0-gguf', 'gemma-3', 27, null, null, 'Q4_0', true],
  ['Qwen3-30B-A3B-Instruct-2507-Q4_K_M.gguf', 'qwen3', 30, 3, null, 'Q4_K_M', false],
  ['Qwen3-235B-A22B-Thinking-2507-IQ2_XXS.gguf', 'qwen3', 235, 22, null, 'IQ2_XXS', false],
  ['Qwen3-Coder-30B-A3B-Instruct-UD-Q4_K_XL.gguf', 'qwen3-coder', 30, 3, null, 'Q4_K_XL', false],
  ['gpt-oss-20b-MXFP4.gguf', 'gpt-oss', 20, null, null, 'MXFP4', false],
  ['openai/gpt-oss-20b', 'gpt-oss', 20, null, null, null, false],
  ['mlx-community/Qwen3-4B-4bit', 'qwen3', 4, null, null, '4BIT', false],
  ['qwen3-4b-instruct-2507@q4_k_m', 'qwen3', 4, null, null, 'Q4_K_M', false],
  ['SmolLM2-135M-Instruct-Q8_0.gguf', 'smollm2', 0.135, null, null, 'Q8_0', false],
  ['Qwen2.5-7B-Instruct-1M-Q4_K_M.gguf', 'qwen2.5', 7, null, null, 'Q4_K_M', false],
  ['Mistral-Small-3.2-24B-Instruct-2506-Q4_K_M.gguf', 'mistral-small-3.2', 24, null, null, 'Q4_K_M', false],
  ['DeepSeek-R1-0528-Qwen3-8B-Q4_K_M.gguf', 'deepseek-r1-0528-qwen3', 8, null, null, 'Q4_K_M', false],
  ['Llama-3.2-1B-Instruct-bf16.gguf', 'llama-3.2', 1, null, null, 'BF16', false],
  ['command-r7b:7b', 'command-r7b', 7, null, null, null, false],
  ['mixtral:8x7b', 'mixtral', null, null, null, null, false],
  ['llama3.2', 'llama3.2', null, null, null, null, false],
  ['qwen3:latest', 'qwen3', null, null, null, null, false],
  ['Phi-4-mini-instruct-IQ4_XS.gguf', 'phi-4-mini', null, null, null, 'IQ4_XS', false],
  ['/models/7B/ggml-model-q4_0.gguf', 'ggml-model', 7, null, null, 'Q4_0', false],
  ['granite3.1-moe:3b-instruct-q5_K_S', 'granite3.1-moe', 3, null, null, 'Q5_K_S', false],
];

describe('parseModelName', () => {
  it.each(NAMES)('%s', (name, family, parameters, active, effective, quantization, qat) => {
    expect(parseModelName(name)).toEqual({
      raw: name,
      family,
      parameters,
      activeParameters: active,
      effectiveParameters: effective,
      quantization,
      qat,
    });
  });

  it('never reads a version, a context size or a bit width as a parameter count', () => {
    expect(parseModelName('qwen2.5:latest').parameters).toBeNull();
    expect(parseModelName('phi3:mini-128k').parameters).toBeNull();
    expect(parseModelName('Qwen3-4B-8bit').parameters).toBe(4);
  });

  it('reads an Ollama namespace and a Windows path without mistaking either for a family', () => {
    expect(parseModelName('library/qwen3:8b').family).toBe('qwen3');
    expect(parseModelName('C:\\models\\Qwen3-4B-Q8_0.gguf')).toMatchObject({
      family: 'qwen3',
      parameters: 4,
      quantization: 'Q8_0',
    });
  });
});

describe('parseParameterSize', () => {
  it.each([
    ['8.2B', 8.2],
    ['7B', 7],
    ['567.55M', 0.56755],
    ['270M', 0.27],
    ['', null],
    ['big', null],
  ] as const)('%s -> %s', (text, expected) => {
    expect(parseParameterSize(text)).toBe(expected);
  });
});

describe('normalizeQuantization', () => {
  it('writes llama.cpp spelling', () => {
    expect(normalizeQuantization('q4_K_M')).toBe('Q4_K_M');
    expect(normalizeQuantization('fp16')).toBe('F16');
    expect(normalizeQuantization('4-bit')).toBe('4BIT');
    expect(normalizeQuantization('  ')).toBeNull();
  });
});
