import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { InternalError } from '../../src/util/errors.js';

const flags = [{ id: 'a' }, { id: 'b', weight: 3 }];

describe('scoreTrial', () => {
  it('is the weighted share of flags reached; passes only with all of them', () => {
    expect(scoreTrial(flags, { a: { reached: true }, b: { reached: false } }, false)).toEqual({
      passed: false,
      score: 0.25,
    });
    expect(scoreTrial(flags, { a: { reached: false }, b: { reached: true } }, false)).toEqual({
      passed: false,
      score: 0.75,
    });
    expect(scoreTrial(flags, { a: { reached: true }, b: { reached: true } }, false)).toEqual({
      passed: true,
      score: 1,
    });
  });

  it('a missing outcome is not reached', () => {
    expect(scoreTrial(flags, { b: { reached: true } }, false)).toEqual({ passed: false, score: 0.75 });
  });

  it('a tampered trial scores 0 and fails whatever it reached', () => {
    expect(scoreTrial(flags, { a: { reached: true }, b: { reached: true } }, true)).toEqual({
      passed: false,
      score: 0,
    });
  });

  it('a task without flags never passes; zero weights are all-or-nothing', () => {
    expect(scoreTrial([], {}, false)).toEqual({ passed: false, score: 0 });
    expect(scoreTrial([{ id: 'z', weight: 0 }], { z: { reached: true } }, false)).toEqual({
      passed: true,
      score: 1,
    });
  });

  it('rejects a negative or non-finite weight', () => {
    expect(() => scoreTrial([{ id: 'x', weight: -1 }], {}, false)).toThrow(InternalError);
    expect(() => scoreTrial([{ id: 'x', weight: Number.NaN }], {}, false)).toThrow(InternalError);
  });
});
