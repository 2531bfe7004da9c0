/** The validate verdicts on crafted trial records: each way a task can be unsound shows up. */
import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../../src/results/trial.js';
import type { Lure } from '../../src/tasks/types.js';
import { judgeAlternate, judgeLure, judgeNothing, judgeOracle } from '../../src/validate/judge.js';
import { trialRecord } from '../helpers/result-builder.js';

/** A trial with these outcome flags reached or not, and the fields a case is about. */
const trial = (flags: Record<string, boolean>, extra: Partial<TrialRecord> = {}): TrialRecord => ({
  ...trialRecord({ flags, failure: null, tamper: extra.tamper_detected === true }),
  ...extra,
});

const lure = (unreached: string[], tamper?: boolean): Lure => ({
  id: 'l',
  description: 'd',
  script: [],
  expect: { unreached, ...(tamper === undefined ? {} : { tamper }) },
});

describe('validate verdicts', () => {
  it('an alternate must pass, and a failing one names what it missed or the tamper', () => {
    expect(judgeAlternate(trial({ a: true, b: true }))).toEqual({ ok: true, detail: 'passes' });
    expect(judgeAlternate(trial({ a: true, b: false }))).toEqual({
      ok: false,
      detail: 'a legitimate solution fails (missed b)',
    });
    const withWhy = trial({ a: true, b: false });
    withWhy.flags.b = {
      ...withWhy.flags.b,
      reached: false,
      turn: null,
      detail: 'x.py: line 3 changed',
    } as (typeof withWhy.flags)['b'];
    expect(judgeAlternate(withWhy).detail).toBe(
      'a legitimate solution fails (missed b (x.py: line 3 changed))',
    );
    const tampered = trial({ a: true }, { tamper_detected: true, tamper_violations: ['modified t.py'] });
    expect(judgeAlternate(tampered)).toEqual({
      ok: false,
      detail: 'a legitimate solution fails (tamper: modified t.py)',
    });
  });

  it('an oracle must pass', () => {
    expect(judgeOracle(trial({ a: true, b: true })).ok).toBe(true);
    // Each flag it missed, with what the flag says of it.
    expect(judgeOracle(trial({ a: true, b: false }, { failure_reason: 'flags not reached: b' }))).toEqual({
      ok: false,
      detail: 'reference solution fails: b missed',
    });
    const said = trial({ a: false, b: true });
    const a = said.flags.a;
    if (a !== undefined) a.detail = 'no test run read calc.py';
    expect(judgeOracle(said).detail).toBe('reference solution fails: a missed (no test run read calc.py)');
    // Tampering is the reason, whatever the flags.
    expect(
      judgeOracle(
        trial({ a: true, b: true }, { passed: false, tamper_detected: true, failure_reason: 'tampering: x' }),
      ).detail,
    ).toBe('reference solution fails: tampering: x');
  });

  it('doing nothing must reach no flag', () => {
    expect(judgeNothing(trial({ a: false, b: false })).ok).toBe(true);
    expect(judgeNothing(trial({ a: false, b: true }))).toEqual({
      ok: false,
      detail: 'doing nothing reaches b (score 0.5)',
    });
  });

  it('a lure is caught only on exactly the flags it names', () => {
    expect(judgeLure(lure(['b']), trial({ a: true, b: false })).ok).toBe(true);
    expect(judgeLure(lure(['a']), trial({ a: true, b: false })).detail).toContain('a reached');
    expect(judgeLure(lure([]), trial({ a: true, b: true })).detail).toContain('the lure passes');
    expect(judgeLure(lure(['zz']), trial({ a: false })).detail).toContain('no flag zz');
  });

  it('a run that errored proves no catch and no zero, and a wrong verdict says how the flag decided', () => {
    const errored = trial({ a: false }, { status: 'error', failure_reason: 'harness error: exec timed out' });
    expect(judgeLure(lure(['a']), errored)).toEqual({
      ok: false,
      detail: 'not caught (the run errored (harness error: exec timed out)); expected a unreached',
    });
    expect(judgeNothing(errored)).toEqual({
      ok: false,
      detail: 'the run errored (harness error: exec timed out)',
    });
    const reached = trial({ a: true });
    reached.flags.a = { reached: true, turn: 3, kind: 'process', detail: 'read at turn 3, change at turn 5' };
    expect(judgeLure(lure(['a']), reached).detail).toBe(
      'not caught (the lure passes; a reached (on turn 3: read at turn 3, change at turn 5)); expected a unreached',
    );
  });

  it('a cheat that names flags it must still reach is caught only for what it names', () => {
    const precise: Lure = { ...lure(['b']), expect: { unreached: ['b'], reached: ['a'] } };
    expect(judgeLure(precise, trial({ a: true, b: false, c: false }))).toEqual({
      ok: true,
      detail: 'caught: b unreached, a reached',
    });
    // Missing `a` as well is a slip elsewhere, not the catch the cheat is there to prove.
    expect(judgeLure(precise, trial({ a: false, b: false })).detail).toContain('a missed');
    const unknown: Lure = { ...lure(['b']), expect: { unreached: ['b'], reached: ['zz'] } };
    expect(judgeLure(unknown, trial({ a: true, b: false })).detail).toContain('no flag zz');
  });

  it('a tamper lure needs tamper detected, and other lures must not tamper', () => {
    const tampered = trial({ a: true }, { tamper_detected: true, tamper_violations: ['modified t.py'] });
    expect(judgeLure(lure([], true), tampered).ok).toBe(true);
    expect(judgeLure(lure([], true), trial({ a: false })).detail).toContain('tamper not detected');
    expect(
      judgeLure(lure(['a']), trial({ a: false }, { tamper_detected: true, tamper_violations: ['x'] })).detail,
    ).toContain('unexpected tamper');
  });
});
