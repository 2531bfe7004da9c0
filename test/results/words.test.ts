import { describe, expect, it } from 'vitest';
import { endReasonWords } from '../../src/results/end-reason-words.js';
import { passKWords } from '../../src/results/pass-k-words.js';
import { END_REASONS } from '../../src/results/trial.js';

const t = (status: 'passed' | 'failed' | 'error') => ({ status, passed: status === 'passed' });
const r = (
  status: 'complete' | 'interrupted' | 'error' | 'running',
  trials: ReturnType<typeof t>[],
  k = 3,
) => ({
  status,
  k,
  early_stopped: false,
  pass_all_k: trials.length === k && trials.every((x) => x.passed),
  trials,
});

describe('end reasons in words', () => {
  it('says a trial ran out of turns with the limit, and of agent time with its seconds', () => {
    expect(endReasonWords('max_turns', { maxTurns: 12 })).toBe('ran out of turns (12)');
    expect(endReasonWords('max_turns')).toBe('ran out of turns');
    expect(endReasonWords('agent_timeout', { timeLimitSec: 900 })).toBe('ran out of agent time (900 s)');
  });

  it('has words for every end reason, none of them the enum itself', () => {
    for (const end of END_REASONS) expect(endReasonWords(end)).not.toContain('_');
  });
});

describe('pass^k in words', () => {
  it('PASS and FAIL only for what was measured', () => {
    expect(passKWords(r('complete', [t('passed'), t('passed'), t('passed')]))).toBe('PASS (k=3)');
    expect(passKWords(r('complete', [t('passed'), t('failed'), t('passed')]))).toBe(
      'FAIL (2/3 passed of k=3)',
    );
    expect(passKWords(r('error', [t('failed'), t('error')]))).toBe(
      'FAIL (0/1 passed of k=3, 1 not measured)',
    );
  });

  it('an interrupted task says how far it got, never FAIL', () => {
    expect(passKWords(r('interrupted', [t('passed'), t('passed')]))).toBe(
      'INTERRUPTED after 2 of 3 trials (2 passed)',
    );
    expect(passKWords(r('interrupted', []))).toBe('INTERRUPTED before any trial');
  });

  it('a task with no trial measured says so, never FAIL (0/0 …)', () => {
    expect(passKWords(r('error', [t('error')]))).toBe('ERROR: no trial measured (1 of 3 not measured)');
    expect(passKWords(r('error', []))).toBe('ERROR: no trial run');
    expect(passKWords(r('complete', [t('passed'), t('error'), t('passed')]))).toBe(
      'ERROR: 2 of 3 trials measured (2 passed, 1 not measured)',
    );
  });
});
