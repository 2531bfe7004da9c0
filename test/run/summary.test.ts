import { describe, expect, it } from 'vitest';
import { formatSummary, unmeasuredNote } from '../../src/run/summary.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';

describe('end-of-run summary', () => {
  it('says how many trials an early-stopped score comes from', () => {
    const table = formatSummary([
      result({ task: 'full', model: 'm', trials: [PASS, PASS, MISS] }),
      result({ task: 'early', model: 'm', trials: [PASS, MISS], k: 5, earlyStop: true }),
    ]);
    const [, , full, early] = table.split('\n');
    expect(full).toMatch(/^full\s+m\s+FAIL \(2\/3 passed of k=3\)\s+0\.83\s/);
    expect(early).toMatch(
      /^early\s+m\s+FAIL \(1\/2 passed of k=5, early-stopped\)\s+0\.75 \(2 of k=5 trials, early-stopped\)\s/,
    );
  });

  it('counts trials that were not measured apart, and says so in one line (exit 3)', () => {
    const results = [
      result({ task: 'ok', model: 'm', trials: [PASS] }),
      result({ task: 'cut', model: 'm', trials: [PASS, { status: 'error' }, { status: 'error' }] }),
    ];
    expect(formatSummary(results).split('\n')[3]).toMatch(
      /^cut\s+m\s+FAIL \(1\/3 passed of k=3, 2 not measured\)/,
    );
    expect(unmeasuredNote(results.slice(0, 1))).toBeNull();
    expect(unmeasuredNote(results)).toBe(
      '2 trial(s) could not be measured and are not scored (their results are non-comparable); the first, cut trial 2: crafted',
    );
  });
});
