import { describe, expect, it } from 'vitest';
import type { Rung } from '../../src/ladder/types.js';
import { ladderVerdict, suiteLabel, verdictLine } from '../../src/ladder/verdict.js';
import { rungModel } from './models.js';

const GiB = 2 ** 30;

describe('verdictLine', () => {
  it('names quantization, model, total and active parameters and the size', () => {
    const model = rungModel('Qwen3.5-35B-A3B-Q6_K', { weightBytes: 27.1 * GiB, weightSource: 'file' });
    expect(verdictLine('skill pdf-forms', 3, model)).toBe(
      'skill pdf-forms needs at least Q6_K of Qwen3.5-35B-A3B: 35B total, 3B active, 27.1 GiB',
    );
  });

  it('a dense model has no active count; an estimated size is marked with ~', () => {
    expect(verdictLine('debug_python_v1', 1, rungModel('small-3b-q4_K_M'))).toBe(
      'debug_python_v1 needs at least Q4_K_M of small-3b: 3B total, ~1.7 GiB',
    );
    expect(verdictLine('t', 1, rungModel('qwen3:0.6b-q8_0'))).toBe(
      't needs at least Q8_0 of qwen3:0.6b: 600M total, ~0.6 GiB',
    );
  });

  it('leaves out what nobody reported instead of guessing', () => {
    expect(verdictLine('t', 1, rungModel('mystery-model'))).toBe('t needs at least mystery-model');
    expect(verdictLine('t', 1, rungModel('mystery-q5_K_M'))).toBe('t needs at least Q5_K_M of mystery');
    expect(verdictLine('t', 1, rungModel('llama-8b'))).toBe('t needs at least llama-8b: 8B total');
  });

  it('says so when no model passes', () => {
    expect(verdictLine('the full suite (3 tasks)', 5, null)).toBe(
      'no model in the ladder passes the full suite (3 tasks) at pass^k (k=5)',
    );
  });
});

describe('ladderVerdict', () => {
  const rung = (name: string, status: Rung['status']) => ({ model: rungModel(name), status });

  it('is the smallest passing model when every rung below it was measured', () => {
    expect(
      ladderVerdict('t', 3, [rung('tiny-0.5b-q4_K_M', 'failed'), rung('small-3b-q4_K_M', 'passed')]),
    ).toBe('t needs at least Q4_K_M of small-3b: 3B total, ~1.7 GiB');
    // Above the first pass, a rung that errored changes nothing.
    expect(ladderVerdict('t', 3, [rung('small-3b-q4_K_M', 'passed'), rung('big-14b-q8_0', 'error')])).toBe(
      't needs at least Q4_K_M of small-3b: 3B total, ~1.7 GiB',
    );
  });

  it('never counts a rung that was not measured as a failure', () => {
    expect(
      ladderVerdict('t', 3, [
        rung('tiny-0.5b-q4_K_M', 'error'),
        rung('mini-1b-q4_K_M', 'failed'),
        rung('small-3b-q4_K_M', 'passed'),
      ]),
    ).toBe(
      'no verdict on t at pass^k (k=3): tiny-0.5b-q4_K_M not measured; the smallest model measured to pass is Q4_K_M of small-3b: 3B total, ~1.7 GiB',
    );
    expect(
      ladderVerdict('t', 2, [rung('tiny-0.5b-q4_K_M', 'failed'), rung('small-3b-q4_K_M', 'error')]),
    ).toBe('no verdict on t at pass^k (k=2): small-3b-q4_K_M not measured, and no model measured passes');
  });
});

describe('suiteLabel', () => {
  it('names one task by its id, several as a suite', () => {
    expect(suiteLabel(['debug_python_v1'], false)).toBe('debug_python_v1');
    expect(suiteLabel(['a', 'b'], false)).toBe('the suite (a, b)');
    expect(suiteLabel(['a', 'b', 'c'], true)).toBe('the full suite (3 tasks)');
  });
});
