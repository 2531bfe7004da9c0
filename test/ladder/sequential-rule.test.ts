/** The sequential rung's stop rule: pooling, what counts, and how often it calls a pass (by simulation). */
import { describe, expect, it } from 'vitest';
import { decide, type SequentialRule, sequentialEvidence } from '../../src/ladder/sequential-rule.js';
import { clopperPearson } from '../../src/stats/clopper-pearson.js';
import { seededRandom } from '../../src/stats/random.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';

const RULE: SequentialRule = { target: 0.8, confidence: 0.9, maxK: 30 };

describe('decide', () => {
  it('passes when the lower bound reaches the target, fails when the upper bound is below it', () => {
    expect(decide(RULE, { lower: 0.8, upper: 1, trialsPerTask: 11 })).toBe('passed');
    expect(decide(RULE, { lower: 0, upper: 0.79, trialsPerTask: 2 })).toBe('failed');
    expect(decide(RULE, { lower: 0.5, upper: 0.95, trialsPerTask: 29 })).toBe('open');
  });

  it('is undecided at --max-k with the bound on both sides, never a pass', () => {
    expect(decide(RULE, { lower: 0.79, upper: 0.95, trialsPerTask: 30 })).toBe('undecided');
  });
});

describe('sequentialEvidence', () => {
  it('pools the tasks, counts tampering as a failure and errors nowhere', () => {
    const results = [
      result({ task: 'a', model: 'm', trials: [PASS, PASS, { ...PASS, tamper: true }] }),
      result({ task: 'b', model: 'm', trials: [PASS, { ...PASS, status: 'error' }, MISS] }),
    ];
    const e = sequentialEvidence(RULE, results);
    expect(e).toMatchObject({ passed: 3, measured: 5, trialsPerTask: 3, decision: 'open' });
    expect(e.lower).toBeCloseTo(clopperPearson(3, 5, 0.9).lower, 12);
  });

  it('passes a model that passed 11 of 11 at target 0.8, 90 %, and not one that passed 10 of 10', () => {
    const passes = (n: number) =>
      result({ task: 'a', model: 'm', trials: Array.from({ length: n }, () => PASS) });
    expect(sequentialEvidence(RULE, [passes(10)]).decision).toBe('open');
    expect(sequentialEvidence(RULE, [passes(11)]).decision).toBe('passed');
  });
});

/** How often the rule, looking after every trial up to max-k, calls a rung of true pass rate `rate` a pass. */
function passShare(rate: number, runs: number, seed: number): number {
  const draw = seededRandom(seed);
  let passedRuns = 0;
  for (let run = 0; run < runs; run++) {
    let passed = 0;
    for (let n = 1; n <= RULE.maxK; n++) {
      if (draw() < rate) passed++;
      const { lower, upper } = clopperPearson(passed, n, RULE.confidence);
      const d = decide(RULE, { lower, upper, trialsPerTask: n });
      if (d === 'passed') passedRuns++;
      if (d !== 'open') break;
    }
  }
  return passedRuns / runs;
}

describe('operating characteristics (1,000 simulated rungs, max-k 30)', () => {
  it('calls a rung of true pass rate 0.7 a pass at target 0.8, 90 %, in at most 10 % of runs', () => {
    expect(passShare(0.7, 1000, 7)).toBeLessThanOrEqual(0.1);
  });

  it('calls a rung that always passes a pass in at least 90 % of runs', () => {
    expect(passShare(1, 1000, 7)).toBeGreaterThanOrEqual(0.9);
  });
});
