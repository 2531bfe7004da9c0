import { describe, expect, it } from 'vitest';
import type { FlagResult } from '../../src/results/trial.js';
import {
  ABSENCE_NOTE,
  absence,
  creditAbsences,
  NO_OUTCOME_DETAIL,
  outcomeReached,
  scoreTrial,
} from '../../src/scoring/score.js';
import type { Flag } from '../../src/tasks/types.js';
import { InternalError } from '../../src/util/errors.js';

const flags = [
  { id: 'a', kind: 'process' },
  { id: 'b', kind: 'outcome', weight: 3 },
] as const;

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
    expect(scoreTrial([{ id: 'z', kind: 'outcome', weight: 0 }], { z: { reached: true } }, false)).toEqual({
      passed: true,
      score: 1,
    });
  });

  it('rejects a negative or non-finite weight', () => {
    expect(() => scoreTrial([{ id: 'x', kind: 'process', weight: -1 }], {}, false)).toThrow(InternalError);
    expect(() => scoreTrial([{ id: 'x', kind: 'process', weight: Number.NaN }], {}, false)).toThrow(
      InternalError,
    );
  });
});

describe('absence flags', () => {
  const judged = [
    { id: 'read', kind: 'process' },
    { id: 'no_loops', kind: 'process', absence: true },
    { id: 'intact', kind: 'outcome', absence: true },
    { id: 'fixed', kind: 'outcome' },
  ] as const;

  it('are credited only in a trial that reached an outcome that is not itself an absence', () => {
    const idle = { read: { reached: true }, no_loops: { reached: true }, intact: { reached: true } };
    // Without the gate this would be 3 of 4.
    expect(scoreTrial(judged, { ...idle, fixed: { reached: false } }, false)).toEqual({
      passed: false,
      score: 0.25,
    });
    expect(scoreTrial(judged, { ...idle, fixed: { reached: true } }, false)).toEqual({
      passed: true,
      score: 1,
    });
    expect(outcomeReached(judged, idle)).toBe(false);
    expect(outcomeReached(judged, { fixed: { reached: true } })).toBe(true);
  });

  it('creditAbsences marks every absence, and unreaches one that held without an outcome, saying why', () => {
    const results: Record<string, FlagResult> = {
      read: { reached: true, turn: 1, kind: 'process' },
      no_loops: { reached: true, turn: null, kind: 'process' },
      intact: { reached: false, turn: null, kind: 'outcome', detail: 'the decoy was broken' },
      fixed: { reached: false, turn: null, kind: 'outcome', detail: 'tests fail' },
    };
    const credited = creditAbsences(judged, results);
    expect(Object.keys(credited)).toEqual(['read', 'no_loops', 'intact', 'fixed']);
    expect(credited).toEqual({
      read: results.read,
      no_loops: { reached: false, turn: null, kind: 'process', absence: true, detail: NO_OUTCOME_DETAIL },
      intact: { ...results.intact, absence: true },
      fixed: results.fixed,
    });
    const worked = creditAbsences(judged, {
      ...results,
      fixed: { reached: true, turn: null, kind: 'outcome' },
    });
    expect(worked.no_loops).toEqual({ reached: true, turn: null, kind: 'process', absence: true });
    // What scoreTrial credits and what the record says agree.
    expect(scoreTrial(judged, credited, false)).toEqual(scoreTrial(judged, results, false));
  });

  it('absence() marks the flag and says so in its description (which changes the task version)', () => {
    const flag: Flag = {
      id: 'no_loops',
      kind: 'process',
      description: 'No file read more than three times.',
      check: () => ({ reached: true, turn: null }),
    };
    const marked = absence(flag);
    expect(marked).toMatchObject({ id: 'no_loops', kind: 'process', absence: true });
    expect(marked.description).toBe(`No file read more than three times. ${ABSENCE_NOTE}`);
    expect(marked.check).toBe(flag.check);
    expect(flag.absence).toBeUndefined();
  });
});
