import { describe, expect, it } from 'vitest';
import type { TrialRecord } from '../../src/results/trial.js';
import { summarize, unmeasuredReasons } from '../../src/run/aggregate.js';
import { absence } from '../../src/scoring/score.js';
import type { Flag } from '../../src/tasks/types.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';

const flag = (id: string, kind: Flag['kind']): Flag => ({
  id,
  kind,
  description: id,
  check: () => ({ reached: true, turn: null }),
});

describe('summarize', () => {
  it('marks absence flags in the skills summary; reach rates are over the trials run, not k', () => {
    const trials: TrialRecord[] = result({ task: 't', model: 'm', trials: [PASS, PASS] }).trials.map(
      (t, i) => ({
        ...t,
        flags: {
          fixed: { reached: i === 0, turn: null, kind: 'outcome' },
          no_loops: { reached: i === 0, turn: null, kind: 'process', absence: true },
        },
      }),
    );
    const task = { flags: [flag('fixed', 'outcome'), absence(flag('no_loops', 'process'))] };
    const s = summarize(task, 5, trials);
    expect(s.skills).toEqual({
      fixed: { kind: 'outcome', reach_rate: 0.5, avg_turns: null },
      no_loops: { kind: 'process', absence: true, reach_rate: 0.5, avg_turns: null },
    });
    expect(s.trials_run).toBe(2);
    expect(s.pass_all_k).toBe(false);
  });

  it('leaves error trials out of every number: they were not measured', () => {
    const trials = result({ task: 't', model: 'm', trials: [PASS, { status: 'error' }, MISS] }).trials.map(
      (t) => (t.status === 'error' ? { ...t, error: { kind: 'context_overflow' as const } } : t),
    );
    const task = { flags: [flag('fixed', 'outcome')] };
    const s = summarize(task, 3, trials);
    expect(s.trials_run).toBe(2);
    expect(s.score).toBe(0.75); // (1 + 0.5) / 2, the error trial's 0 not among them
    expect(s.skills.fixed?.reach_rate).toBe(0.5);
    expect(s.pass_all_k).toBe(false);
    expect(unmeasuredReasons(3, trials)).toEqual(['1 of 3 trials not measured (context_overflow)']);
    expect(
      unmeasuredReasons(
        3,
        trials.filter((t) => t.status !== 'error'),
      ),
    ).toEqual([]);
  });
});
