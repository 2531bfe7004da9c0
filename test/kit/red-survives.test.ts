/**
 * Red tests stay: every test a red run showed failing — or, for a run that failed at collection,
 * every test its test files defined when it ran — passes at the end.
 */
import { describe, expect, it } from 'vitest';
import type { RunnerSummary } from '../../src/evidence/runner-summary.js';
import { redSurvives } from '../../src/kit/tdd.js';
import type { SnapshotEntry } from '../../src/sandbox/types.js';
import { writeFile } from '../scoring/call-fixtures.js';

const TESTS =
  'def test_a():\n    assert f(1)\n\n\nclass TestB:\n    def test_c(self):\n        assert f(2)\n\n\n@pytest.mark.parametrize("x", [1, 2])\ndef test_d(x):\n    assert f(x)\n';
const file: SnapshotEntry = { kind: 'file', mode: 0o644, size: 1, sha256: 'x' };

function survives(seen: RunnerSummary | null, finalOutput: string, present = true) {
  const calls = [{ ...writeFile('test_m.py', TESTS), turn: 1 }];
  const ctx = {
    calls,
    setupFiles: new Map<string, string>(),
    changeTurns: new Map([['test_m.py', [1]]]),
    finalSnapshot: new Map(present ? [['test_m.py', file]] : []),
  };
  return redSurvives(
    ctx,
    { read: new Set(['/workspace/test_m.py']), seen, at: { call: 1, step: 1 } },
    finalOutput,
  );
}

const ALL =
  'PASSED test_m.py::test_a\nPASSED test_m.py::TestB::test_c\nPASSED test_m.py::test_d[1]\nPASSED test_m.py::test_d[2]\n';

describe('redSurvives', () => {
  it('a run that failed at collection names the tests its files defined then; each must pass at the end', () => {
    expect(survives(null, ALL)).toBeNull();
    expect(survives(null, 'PASSED test_m.py::test_a\nPASSED test_m.py::test_d[1]\n')).toBe(
      'tests that were red do not pass at the end: test_m.py::TestB::test_c',
    );
    expect(survives(null, ALL, false)).toBe('test_m.py, which was red, is gone');
  });

  it('a run that named its failures is judged by them', () => {
    const seen = {
      runner: 'pytest',
      verdict: 'failed',
      failedTests: ['test_m.py::test_a'],
    } as unknown as RunnerSummary;
    expect(survives(seen, 'PASSED test_m.py::test_a\n')).toBeNull();
    expect(survives(seen, 'PASSED test_m.py::TestB::test_c\n')).toMatch(/test_m\.py::test_a$/);
  });
});
