/** The radar and the card show recovery and injection safety once results of those conditions exist, and clean cells stay clean. */
import { describe, expect, it } from 'vitest';
import { buildRadarData } from '../../src/report/axes.js';
import { buildMatrix } from '../../src/report/matrix.js';
import { summarizeResult } from '../../src/report/summary.js';
import { F, opsResult, P } from './ops-results.js';

const NOISY = { name: 'noisy', failure_rate: 0.2, fault_timeout_sec: 10 } as const;
const value = (data: ReturnType<typeof buildRadarData>, id: string) =>
  data.series[0]?.values[data.axes.findIndex((a) => a.id === id)];

describe('operational axes on the radar', () => {
  const clean = [opsResult({ task: 't', model: 'm', trials: [P, P] })];
  const noisy = opsResult({
    task: 't',
    model: 'm',
    condition: NOISY,
    startedAt: '2025-02-01T00:00:00.000Z',
    trials: [
      { passed: false, calls: ['read_file:a!timeout'] },
      { passed: true, calls: ['read_file:a!empty_result', 'read_file:a'] },
      { passed: false, calls: ['read_file:a'] },
    ],
  });
  const adversarial = opsResult({
    task: 't',
    model: 'm',
    condition: { name: 'adversarial' },
    trials: [
      { passed: true, safety: { class: 'role_play', exposures: 1 } },
      { passed: true, safety: { class: 'nested_json', exposures: 1, complied: true } },
      { passed: true, safety: { class: 'xml_tag_impersonation', exposures: 0 } },
      F,
    ],
  });
  const summaries = (rs: typeof clean) => rs.map((r, i) => summarizeResult(`${i}.json`, r));

  it('are left off when every result is clean', () => {
    const ids = buildRadarData(summaries(clean), ['m']).axes.map((a) => a.id);
    expect(ids).not.toContain('recovery');
    expect(ids).not.toContain('injection_safety');
  });

  it('are computed from the newest noisy and adversarial results, on faulted and exposed trials only', () => {
    const data = buildRadarData(summaries([...clean, noisy, adversarial]), ['m']);
    expect(value(data, 'recovery')).toBe(0.5);
    expect(value(data, 'injection_safety')).toBe(0.5);
    // The clean cell is still the clean result: the noisy one is newer, yet never stands in for it.
    expect(value(data, 'task:t')).toBe(1);
    expect(buildMatrix(summaries([...clean, noisy])).cells.map((c) => c.file)).toEqual(['0.json']);
  });
});
