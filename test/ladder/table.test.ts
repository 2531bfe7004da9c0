import { describe, expect, it } from 'vitest';
import { ladderTable } from '../../src/ladder/table.js';
import type { Rung } from '../../src/ladder/types.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';
import { rungModel } from './models.js';

const rung = (name: string, status: Rung['status'], trials: (typeof PASS)[][] = []): Rung => ({
  model: rungModel(name),
  status,
  results: trials.map((t, i) => result({ task: ['a', 'b'][i] ?? 'x', model: name, trials: t })),
  error: null,
  serverLog: null,
});

describe('ladderTable', () => {
  it('shows each model with size, quantization, pass^k per task, clear time and which pass', () => {
    const table = ladderTable(
      [
        rung('tiny-0.5b-q4_K_M', 'failed', [
          [PASS, PASS],
          [PASS, MISS],
        ]),
        rung('small-3b-q4_K_M', 'passed', [
          [PASS, PASS],
          [PASS, PASS],
        ]),
        rung('mid-7b-q4_K_M', 'failed', [[MISS], [PASS]]),
        rung('big-14b-q8_0', 'passed', [
          [PASS, PASS],
          [PASS, PASS],
        ]),
        { ...rung('mystery', 'error'), error: 'model server for /m/x exited with code 1\n  | boom' },
      ],
      ['a', 'b'],
    );
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^#\s+model\s+params\s+quant\s+size\s+a\s+b\s+clear time\s+verdict$/);
    expect(lines[2]).toMatch(
      /^1\s+tiny-0.5b-q4_K_M\s+500M\s+Q4_K_M\s+~0.3 GiB\s+PASS 2\/2\s+FAIL 1\/2\s+-\s+fails$/,
    );
    // 4 trials of 10 s each in the crafted results.
    expect(lines[3]).toMatch(
      /^2\s+small-3b-q4_K_M\s+3B\s+Q4_K_M\s+~1.7 GiB\s+PASS 2\/2\s+PASS 2\/2\s+40.0s\s+PASSES \(smallest\)$/,
    );
    expect(lines[5]).toMatch(
      /big-14b-q8_0\s+14B\s+Q8_0\s+~13.9 GiB\s+PASS 2\/2\s+PASS 2\/2\s+40.0s\s+PASSES$/,
    );
    expect(lines[6]).toMatch(/^5\s+mystery\s+\?\s+\?\s+unknown\s+-\s+-\s+-\s+not measured$/);
    expect(lines[7]).toBe('! mystery: model server for /m/x exited with code 1');
  });

  it('a task whose trials errored shows ERROR with how many were measured, never FAIL', () => {
    const lines = ladderTable([rung('a-1b-q4_0', 'error', [[PASS, { status: 'error' }]])], ['a']).split('\n');
    expect(lines[2]).toMatch(/a-1b-q4_0.*\s+ERROR 1\/2 measured\s+-\s+not measured$/);
    const none = ladderTable([rung('a-1b-q4_0', 'error', [[{ status: 'error' }]])], ['a']).split('\n');
    expect(none[2]).toMatch(/\s+ERROR none measured\s+-\s+not measured$/);
  });

  it('an interrupted task says how many of its k trials ran', () => {
    const cut = rung('a-1b-q4_0', 'interrupted');
    cut.results = [
      result({ task: 'a', model: 'a-1b-q4_0', trials: [PASS, PASS], k: 3, status: 'interrupted' }),
    ];
    expect(ladderTable([cut], ['a']).split('\n')[2]).toMatch(/\s+INTERRUPTED 2\/3 run\s+-\s+interrupted$/);
  });

  it('marks rungs above the stop as not run, and tampering apart from failing', () => {
    const tampered = rung('a-1b-q4_0', 'failed', [[PASS]]);
    const first = tampered.results[0];
    if (first === undefined) throw new Error('no result');
    tampered.results[0] = { ...first, tamper_detected_count: 1 };
    const lines = ladderTable([tampered, rung('b-2b-q4_0', 'not_run')], ['a']).split('\n');
    expect(lines[2]).toMatch(/TAMPER\s+-\s+fails$/);
    expect(lines[3]).toMatch(/b-2b-q4_0.*-\s+-\s+not run$/);
  });
});
