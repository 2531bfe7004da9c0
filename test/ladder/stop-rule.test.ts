import { describe, expect, it } from 'vitest';
import { ladderGoesOn, passesSuite, rungOutcome, taskFails, taskPasses } from '../../src/ladder/stop-rule.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';

const ok = (task: string) => result({ task, model: 'm', trials: [PASS, PASS, PASS] });

describe('the stop rule', () => {
  it('a task passes at pass^k only when all k trials passed and the run completed', () => {
    expect(taskPasses(ok('a'))).toBe(true);
    expect(taskPasses(result({ task: 'a', model: 'm', trials: [PASS, MISS, PASS] }))).toBe(false);
    // Early stop or an interruption leaves fewer than k trials: not a pass.
    expect(taskPasses(result({ task: 'a', model: 'm', trials: [PASS, PASS], k: 3 }))).toBe(false);
    expect(taskPasses({ ...ok('a'), status: 'interrupted' })).toBe(false);
  });

  it('tampering fails the task even where the trials say passed', () => {
    expect(taskPasses({ ...ok('a'), tamper_detected_count: 1 })).toBe(false);
  });

  it('a model passes the suite only with a passing result for every task', () => {
    expect(passesSuite(['a', 'b'], [ok('a'), ok('b')])).toBe(true);
    expect(passesSuite(['a', 'b'], [ok('a')])).toBe(false);
    expect(passesSuite(['a', 'b'], [ok('a'), result({ task: 'b', model: 'm', trials: [MISS] })])).toBe(false);
  });

  it('trials that errored are no failure: a rung with only those is not measured', () => {
    const errored = result({ task: 'b', model: 'm', trials: [PASS, { status: 'error' }, PASS] });
    expect(taskPasses(errored)).toBe(false);
    expect(taskFails(errored)).toBe(false);
    expect(rungOutcome(['a', 'b'], [ok('a'), errored])).toBe('error');
    // A run stopped before the second task: not measured either.
    expect(rungOutcome(['a', 'b'], [ok('a')])).toBe('error');
    // One measured failure decides pass^k whatever else errored.
    const failed = result({ task: 'a', model: 'm', trials: [MISS] });
    expect(taskFails(failed)).toBe(true);
    expect(rungOutcome(['a', 'b'], [failed, errored])).toBe('failed');
    expect(rungOutcome(['a', 'b'], [ok('a'), ok('b')])).toBe('passed');
  });

  it('the first passing rung stops the ladder unless it is exhaustive', () => {
    expect(ladderGoesOn(false, false)).toBe(true);
    expect(ladderGoesOn(true, false)).toBe(false);
    expect(ladderGoesOn(true, true)).toBe(true);
  });
});
