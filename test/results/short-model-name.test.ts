/**
 * Short model names: a llama-server path shows as its file stem with the quantization in it, other
 * names as they are, two models never under one name; and a typed name resolves to the full one.
 */
import { describe, expect, it } from 'vitest';
import { resolveModelName, shortModelName, shortModelNames } from '../../src/results/short-model-name.js';
import { UsageError } from '../../src/util/errors.js';

const TINY = '/root/.cache/agent-bench/models/qwen-tiny-Q4_K_M.gguf';

describe('shortModelName', () => {
  it.each([
    [TINY, 'qwen-tiny-Q4_K_M'],
    ['/models/Qwen3-30B-A3B-Instruct-2507-Q8_0.GGUF', 'Qwen3-30B-A3B-Instruct-2507-Q8_0'],
    ['C:\\models\\gemma-3-4b-it-q4_0.gguf', 'gemma-3-4b-it-q4_0'],
    ['./models/phi-4-Q2_K.gguf', 'phi-4-Q2_K'],
    ['~/models/llama/Llama-3.1-8B-Instruct-Q6_K-00001-of-00002.gguf', 'Llama-3.1-8B-Instruct-Q6_K'],
    ['qwen-tiny-Q5_K_M.gguf', 'qwen-tiny-Q5_K_M'],
    ['/models/mlx/Qwen3-4B-4bit', 'Qwen3-4B-4bit'],
  ])('%s -> %s', (full, short) => {
    expect(shortModelName(full)).toBe(short);
  });

  it.each([
    'qwen3:8b',
    'qwen3:30b-a3b-instruct-2507-q4_K_M',
    'hf.co/unsloth/Qwen3-8B-GGUF:Q4_K_M',
    'library/qwen3:8b',
    'gemma-3-270m-it-qat',
    'oracle',
    'gpt-4o-mini',
  ])('leaves the non-path name %s unchanged', (name) => {
    expect(shortModelName(name)).toBe(name);
  });
});

describe('shortModelNames', () => {
  it('shows each quantization of one model by its stem', () => {
    const names = shortModelNames([
      '/m/qwen-tiny-Q2_K.gguf',
      '/m/qwen-tiny-Q4_K_M.gguf',
      '/m/qwen-tiny-Q8_0.gguf',
      'qwen3:8b',
    ]);
    expect([...names.values()]).toEqual(['qwen-tiny-Q2_K', 'qwen-tiny-Q4_K_M', 'qwen-tiny-Q8_0', 'qwen3:8b']);
  });

  it('keeps as many parent folders as tell two models with one stem apart', () => {
    const names = shortModelNames([
      '/llama/7B/ggml-model-q4_0.gguf',
      '/llama/13B/ggml-model-q4_0.gguf',
      '/a/x/same.gguf',
      '/b/x/same.gguf',
      '/m/other-Q4_0.gguf',
    ]);
    expect(names.get('/llama/7B/ggml-model-q4_0.gguf')).toBe('7B/ggml-model-q4_0');
    expect(names.get('/llama/13B/ggml-model-q4_0.gguf')).toBe('13B/ggml-model-q4_0');
    expect(names.get('/a/x/same.gguf')).toBe('a/x/same');
    expect(names.get('/b/x/same.gguf')).toBe('b/x/same');
    expect(names.get('/m/other-Q4_0.gguf')).toBe('other-Q4_0');
  });

  it('never shows a path under the name of another model', () => {
    const names = shortModelNames(['qwen-tiny-Q4_K_M', TINY]);
    expect(names.get('qwen-tiny-Q4_K_M')).toBe('qwen-tiny-Q4_K_M');
    expect(names.get(TINY)).toBe('models/qwen-tiny-Q4_K_M');
  });

  it('shows in full what nothing shorter tells apart', () => {
    const names = shortModelNames(['/m/x.gguf', 'm/x.gguf']);
    expect(names.get('/m/x.gguf')).toBe('/m/x.gguf');
    expect(names.get('m/x.gguf')).toBe('m/x.gguf');
  });
});

describe('resolveModelName', () => {
  const known = [TINY, '/m/qwen-tiny-Q8_0.gguf', 'qwen3:8b'];

  it('takes the full name or the short name', () => {
    expect(resolveModelName(TINY, known)).toBe(TINY);
    expect(resolveModelName('qwen-tiny-Q4_K_M', known)).toBe(TINY);
    expect(resolveModelName('qwen3:8b', known)).toBe('qwen3:8b');
  });

  it('takes the disambiguated short name a table prints', () => {
    const twins = ['/llama/7B/ggml-model-q4_0.gguf', '/llama/13B/ggml-model-q4_0.gguf'];
    expect(resolveModelName('13B/ggml-model-q4_0', twins)).toBe('/llama/13B/ggml-model-q4_0.gguf');
  });

  it('refuses a stem two models share, naming both in full', () => {
    const twins = ['/llama/7B/ggml-model-q4_0.gguf', '/llama/13B/ggml-model-q4_0.gguf'];
    const err = catchError(() => resolveModelName('ggml-model-q4_0', twins));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(
      'model ggml-model-q4_0 is ambiguous: it names /llama/13B/ggml-model-q4_0.gguf, /llama/7B/ggml-model-q4_0.gguf (give one of them in full)',
    );
  });

  it('lists the known models by their short names for an unknown one', () => {
    const err = catchError(() => resolveModelName('qwen-tiny-Q5_K_M', known, ' in results'));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(
      'no results for model qwen-tiny-Q5_K_M in results (models with results: qwen-tiny-Q4_K_M, qwen-tiny-Q8_0, qwen3:8b)',
    );
    expect(catchError(() => resolveModelName('x', [])).message).toBe(
      'no results for model x (models with results: none)',
    );
  });
});

function catchError(f: () => unknown): Error {
  try {
    f();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}
