import { describe, expect, it } from 'vitest';
import { formatSummary } from '../../src/run/summary.js';
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
});
