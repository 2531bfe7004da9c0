import { describe, expect, it } from 'vitest';
import { planLadder } from '../../src/ladder/plan.js';
import { served } from './models.js';

describe('planLadder', () => {
  it('orders by estimated weight, smallest first, whatever the input order', () => {
    const ladder = planLadder([
      served('big-14b-q8_0'),
      served('tiny-0.5b-q4_K_M'),
      served('small-3b-q4_K_M'),
    ]);
    expect(ladder.map((m) => m.id)).toEqual(['tiny-0.5b-q4_K_M', 'small-3b-q4_K_M', 'big-14b-q8_0']);
    expect(ladder[0]?.size).toEqual({ bytes: Math.round((0.5e9 * 4.9) / 8), source: 'estimate' });
  });

  it('weighs the quantization, not just the parameters: 8B at Q2_K is lighter than 4B at F16', () => {
    const ladder = planLadder([served('m-4b-f16'), served('m-8b-q2_K')]);
    expect(ladder.map((m) => m.id)).toEqual(['m-8b-q2_K', 'm-4b-f16']);
  });

  it('prefers a reported size to an estimate, and puts unknown sizes last', () => {
    const ladder = planLadder([
      served('mystery-model'),
      served('named-7b-q4_K_M'),
      served('reported', { weightBytes: 2 ** 30, weightSource: 'server' }),
    ]);
    expect(ladder.map((m) => m.id)).toEqual(['reported', 'named-7b-q4_K_M', 'mystery-model']);
    expect(ladder[0]?.size).toEqual({ bytes: 2 ** 30, source: 'server' });
    expect(ladder[2]?.size).toBeNull();
  });

  it('a MoE model counts every expert: 30B-A3B is heavier than a dense 8B', () => {
    const ladder = planLadder([served('qwen3-30b-a3b-q4_K_M'), served('llama-8b-q4_K_M')]);
    expect(ladder.map((m) => m.id)).toEqual(['llama-8b-q4_K_M', 'qwen3-30b-a3b-q4_K_M']);
  });
});

describe('rung labels', () => {
  it('labels a model by its short name: a GGUF file, or a path llama-server reports, by its stem', () => {
    const labels = planLadder([
      { ...served('x'), name: '/m/Qwen3-4B-Q6_K.gguf', kind: 'gguf-file' },
      { ...served('x'), name: '/m/big-Q4_0-00001-of-00003.gguf', kind: 'gguf-file' },
      { ...served('x'), name: '/root/.cache/agent-bench/models/qwen-tiny-Q4_K_M.gguf' },
      served('qwen3:8b'),
    ]).map((m) => m.label);
    expect(labels.sort()).toEqual(['Qwen3-4B-Q6_K', 'big-Q4_0', 'qwen-tiny-Q4_K_M', 'qwen3:8b'].sort());
  });
});
