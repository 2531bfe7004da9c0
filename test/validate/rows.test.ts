/** validate's exit comes from its rows' kinds, never from their wording. */
import { describe, expect, it } from 'vitest';
import { GateFailedError, InfraError } from '../../src/util/errors.js';
import { assertSound, formatValidation, rowLine, type ValidationRow } from '../../src/validate/rows.js';

const row = (kind: 'passed' | 'failed' | 'error', detail = 'x'): ValidationRow => ({
  taskId: 't',
  run: 'oracle',
  kind,
  detail,
});
const cached: ValidationRow = {
  taskId: 't',
  run: 'do-nothing',
  kind: 'cached',
  detail: 'scores 0',
  proof: { key: `0123456789ab${'f'.repeat(52)}`, provedAt: '2026-12-04T21:00:00.000Z' },
};

describe('assertSound', () => {
  it('passes passed and cached rows', () => {
    expect(() => assertSound([row('passed'), cached])).not.toThrow();
  });

  it('exits 1 on an unsound task, whatever its detail says', () => {
    expect(() => assertSound([row('passed'), row('failed', 'harness error: looks like one')])).toThrow(
      GateFailedError,
    );
  });

  it('exits 3 on an infrastructure error, even beside an unsound task', () => {
    expect(() => assertSound([row('failed'), row('error', 'the engine went away')])).toThrow(InfraError);
  });
});

describe('a cached row', () => {
  it('says where its pass comes from, in the table and on its progress line', () => {
    expect(rowLine(cached)).toBe(
      'ok   t do-nothing: scores 0 (cached proof from 2026-12-04, key 0123456789ab)',
    );
    expect(formatValidation([cached]).split('\n')[1]).toBe(
      't     do-nothing  ok    scores 0 (cached proof from 2026-12-04, key 0123456789ab)',
    );
  });
});

describe("a failed row's output", () => {
  it('is shown under it in the table, its last lines indented; a passed row shows none', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');
    const failed: ValidationRow = {
      taskId: 't',
      run: 'oracle',
      kind: 'failed',
      detail: 'reward 0',
      output: lines,
    };
    const table = formatValidation([failed, { ...failed, kind: 'passed', detail: 'passes' }]).split('\n');
    expect(table[1]).toBe('t     oracle  FAIL  reward 0');
    expect(table[2]).toBe('    | ...');
    expect(table[3]).toBe('    | line 11');
    expect(table[32]).toBe('    | line 40');
    expect(table[33]).toBe('t     oracle  ok    passes');
    expect(table).toHaveLength(34);
  });
});
