import { describe, expect, it } from 'vitest';
import { formatSummary, formatTotals, unmeasuredNote } from '../../src/run/summary.js';
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
      /^cut\s+m\s+ERROR: 1 of 3 trials measured \(1 passed, 2 not measured\)\s/,
    );
    expect(unmeasuredNote(results.slice(0, 1))).toBeNull();
    expect(unmeasuredNote(results)).toBe(
      '2 trial(s) could not be measured and are not scored (their results are non-comparable); the first, cut trial 2: crafted',
    );
  });

  it('never calls a task FAIL when no trial failed: interrupted and unmeasured tasks say how far they got', () => {
    const rows = formatSummary([
      result({ task: 'cut', model: 'm', trials: [PASS, PASS], k: 3, status: 'interrupted' }),
      result({
        task: 'down',
        model: 'm',
        trials: [{ status: 'error' }, { status: 'error' }],
        status: 'error',
      }),
      result({ task: 'lost', model: 'm', trials: [PASS, MISS], k: 3, status: 'interrupted' }),
    ]).split('\n');
    expect(rows[2]).toMatch(/^cut\s+m\s+INTERRUPTED after 2 of 3 trials \(2 passed\)\s/);
    expect(rows[3]).toMatch(/^down\s+m\s+ERROR: no trial measured \(2 of 2 not measured\)\s/);
    // One measured failure decides pass^k, however the run ended.
    expect(rows[4]).toMatch(/^lost\s+m\s+FAIL \(1\/2 passed of k=3\)\s/);
    expect(rows.join('\n')).not.toMatch(/INTERRUPTED FAIL|ERROR FAIL/);
  });

  it('says which columns are per-trial means and which are totals, with harness time beside model time', () => {
    const table = formatSummary([
      result({
        task: 't',
        model: 'm',
        trials: [
          { ...PASS, elapsedSec: 30 },
          { ...PASS, elapsedSec: 10 },
        ],
      }),
    ]).split('\n');
    const header = table[0] ?? '';
    expect(header).toMatch(
      /avg score\s+avg turns\s+avg model\+tools\s+avg harness\s+Σ tamper\s+Σ hallucinated\s+Σ text calls$/,
    );
    // Means of the two trials: (30 + 10) / 2 s of model and tools, 1 s of harness each.
    expect(table[2]).toMatch(/\s20\.0s\s+1\.0s\s+0\s+0\s+0$/);
    expect(table.at(-1)).toMatch(/^avg: mean per measured trial .*· Σ: total over the trials$/);
  });
});

describe('the totals line', () => {
  it("counts this run's trials (not the resumed ones), the wall time and the trials' own time", () => {
    const runStartedAt = '2025-06-01T10:00:00.000Z';
    const earlier = result({ task: 'a', model: 'm', trials: [PASS, PASS, { ...PASS, elapsedSec: 50 }] });
    // Trial 0 was resumed from an earlier run; trials 1 and 2 ran now.
    const resumed = {
      ...earlier,
      trials: earlier.trials.map((t, i) => ({
        ...t,
        started_at: i === 0 ? '2025-05-31T09:00:00.000Z' : '2025-06-01T10:00:05.000Z',
      })),
    };
    const fresh = result({ task: 'b', model: 'm', trials: [PASS, { status: 'error' }] });
    const now = {
      ...fresh,
      trials: fresh.trials.map((t) => ({ ...t, started_at: '2025-06-01T10:01:00.000Z' })),
    };
    expect(formatTotals([resumed, now], { runStartedAt, wallMs: 95_000, parallel: 2 })).toBe(
      'Total: 2 tasks · 4 trials (1 not measured) + 1 resumed · wall 1m35s (2 at a time) · model+tools 1m20s · harness 4s',
    );
    expect(formatTotals([now], { runStartedAt, wallMs: 1_000, parallel: 1 })).toBe(
      'Total: 1 task · 2 trials (1 not measured) · wall 1s · model+tools 20s · harness 2s',
    );
    expect(
      formatTotals([now], { runStartedAt, wallMs: 1_000, parallel: 1, peakRssBytes: 180.4 * 2 ** 20 }),
    ).toBe(
      'Total: 1 task · 2 trials (1 not measured) · wall 1s · model+tools 20s · harness 2s · peak memory 180 MiB',
    );
  });
});
