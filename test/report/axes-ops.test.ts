/** The operational axes on crafted results with known answers. */
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/report/axes-compare.js';
import { type AxesRow, buildAxes } from '../../src/report/axes-ops.js';
import { renderAxes, renderComparison } from '../../src/report/axes-render.js';
import { buildPareto } from '../../src/report/pareto.js';
import { renderParetoMd } from '../../src/report/pareto-render.js';
import type { RunCondition } from '../../src/results/condition.js';
import { F, type OpsTrial, opsResult, P } from './ops-results.js';

const NOISY: RunCondition = { name: 'noisy', failure_rate: 0.2, fault_timeout_sec: 10 };
const ADV: RunCondition = { name: 'adversarial' };
const near = (x: number | null | undefined, y: number, digits = 3) => expect(x).toBeCloseTo(y, digits);
/** Model m passing t1 and t2 clean, twice each. */
const passedClean = () => ['t1', 't2'].map((task) => opsResult({ task, model: 'm', trials: [P, P] }));
const rowOf = (rows: AxesRow[], model: string, condition = 'clean') =>
  rows.find((r) => r.model === model && r.condition === condition) as AxesRow;

describe('completion and reliability', () => {
  const rows = buildAxes([
    opsResult({ task: 't1', model: 'm', k: 3, trials: [P, P, F] }),
    opsResult({ task: 't2', model: 'm', k: 3, trials: [P, P, P] }),
    opsResult({ task: 't3', model: 'm', k: 3, trials: [F, P, P] }),
  ]);
  const r = rowOf(rows, 'm');

  it('averages the pass rate per task, with a bootstrap over tasks', () => {
    expect(r.tasks).toEqual(['t1', 't2', 't3']);
    expect(r.trials).toBe(9);
    near(r.completion.value, 7 / 9);
    expect(r.completion).toMatchObject({ n: 3, method: 'bootstrap' });
  });

  it('takes pass^1 from each first trial and pass^k as C(c,k)/C(n,k), both with Wilson over tasks', () => {
    near(r.pass_1.value, 2 / 3);
    near(r.pass_1.low, 0.208);
    near(r.pass_k.value, 1 / 3);
    expect(r.pass_k).toMatchObject({ n: 3, method: 'wilson', k: [3] });
  });

  it('says how many distinct instances of its variant tasks stand behind a row, measured trials only', () => {
    const v = (variant: string, t = P) => ({ ...t, variant });
    const rows = buildAxes([
      // Three trials on two instances (a replayed one), and an error trial not counted.
      opsResult({
        task: 'a',
        model: 'm',
        k: 4,
        trials: [v('i1'), v('i2'), v('i1', F), { ...v('i9'), error: true }],
      }),
      opsResult({ task: 'b', model: 'm', k: 2, trials: [v('j1'), v('j2')] }),
      opsResult({ task: 'c', model: 'm', k: 2, trials: [P, P] }),
      opsResult({ task: 'c', model: 'plain', k: 2, trials: [P, P] }),
    ]);
    expect(rowOf(rows, 'm').instances).toEqual({ tasks: 2, distinct: 4 });
    expect(rowOf(rows, 'plain').instances).toBeNull();
    expect(renderAxes(rows, 'md')).toContain('3 (7 trials; 2 variant tasks on 4 distinct instances)');
  });

  it('marks an early-stopped cell and leaves error trials out', () => {
    const [row] = buildAxes([
      opsResult({ task: 'a', model: 'm', k: 3, earlyStop: true, trials: [P, F] }),
      opsResult({ task: 'b', model: 'm', k: 2, trials: [{ passed: false, error: true }, P] }),
    ]);
    expect(row?.early_stopped).toEqual(['a']);
    expect(row?.trials).toBe(3);
    // b's first trial was not measured: no pass^1 for it.
    expect(row?.pass_1).toMatchObject({ value: 1, n: 1 });
    // a stopped at a failure: pass^3 is exactly 0; b: 1 of 1 measured, fewer than k=2, no estimate.
    expect(row?.pass_k).toMatchObject({ value: 0, n: 1 });
  });
});

describe('efficiency and wasted calls', () => {
  it('is optimal ÷ turns that called a tool, on passing trials only: doing nothing has no efficiency at all', () => {
    const work = (n: number) => Array.from({ length: n }, (_, i) => `read_file:f${i}`);
    const rows = buildAxes([
      opsResult({
        task: 't',
        model: 'worker',
        optimalSteps: 4,
        trials: [
          { passed: true, calls: work(8) },
          { passed: true, calls: work(3) },
          { passed: false, calls: [] },
        ],
      }),
      opsResult({ task: 't', model: 'baseline:refuse-all', optimalSteps: 4, trials: [{ passed: false }] }),
      opsResult({ task: 'u', model: 'worker', trials: [{ passed: true, calls: work(2) }] }),
    ]);
    // (0.5 + 1) / 2 on t; u has no optimum recorded, so no efficiency.
    expect(rowOf(rows, 'worker').efficiency).toMatchObject({ value: 0.75, n: 1 });
    expect(rowOf(rows, 'baseline:refuse-all').efficiency).toMatchObject({ value: null, n: 0 });
    expect(rows.map((r) => [r.model, r.baseline])).toEqual([
      ['worker', false],
      ['baseline:refuse-all', true],
    ]);
  });

  it('counts a repeat of a call that ran as a duplicate, and a retry of a faulted call as none', () => {
    const [row] = buildAxes([
      opsResult({
        task: 't',
        model: 'm',
        trials: [{ passed: true, calls: ['read_file:a', 'read_file:a', 'read_file:b'] }],
      }),
      opsResult({
        task: 'u',
        model: 'm',
        trials: [{ passed: true, calls: ['read_file:a!timeout', 'read_file:a', 'read_file:c'] }],
      }),
    ]);
    near(row?.duplicate_rate.value, (1 / 3 + 0) / 2);
  });

  it('does not count a repeat after something was written: a test run after an edit shows something new', () => {
    const [row] = buildAxes([
      opsResult({
        task: 't',
        model: 'm',
        trials: [{ passed: true, calls: ['read_file:a', 'write_file:a', 'read_file:a'] }],
      }),
      // An untraced command may have written anything.
      opsResult({
        task: 'u',
        model: 'm',
        trials: [{ passed: true, calls: ['read_file:a', 'execute_command:x', 'read_file:a'] }],
      }),
    ]);
    expect(row?.duplicate_rate.value).toBe(0);
  });
});

describe('recovery, drops and safety', () => {
  const rows = buildAxes([
    ...passedClean(),
    opsResult({
      task: 't1',
      model: 'm',
      condition: NOISY,
      trials: [
        { passed: false, calls: ['read_file:a!internal_error'] },
        { passed: true, calls: ['read_file:a'] },
      ],
    }),
    opsResult({
      task: 't2',
      model: 'm',
      condition: NOISY,
      trials: [
        { passed: true, calls: ['read_file:a!rate_limit', 'read_file:a'] },
        { passed: true, calls: ['read_file:a'] },
      ],
    }),
    opsResult({
      task: 't1',
      model: 'm',
      condition: ADV,
      trials: [
        { passed: true, safety: { class: 'direct_override', exposures: 2 } },
        { passed: true, safety: { class: 'role_play', exposures: 1, complied: true, exfiltrated: true } },
        { passed: false, safety: { class: 'base64_wrapped', exposures: 0 } },
      ],
    }),
  ]);

  it('judges recovery on the trials a fault fired in, against clean on the same tasks', () => {
    const noisy = rowOf(rows, 'm', 'noisy@0.2');
    expect(noisy.recovery).toMatchObject({ faulted_trials: 2, faults: 2 });
    // t1: its faulted trial failed (0); t2: passed (1). Clean: both 1.
    near(noisy.recovery?.completion_with_faults.value, 0.5);
    near(noisy.recovery?.clean_on_same_tasks.value, 1);
    near(noisy.recovery?.difference.value, -0.5);
    // Of the two faulted calls, t2's was resent and ran; t1's never was.
    near(noisy.recovery?.retry_rate.value, 0.5);
    near(noisy.drop_from_clean?.value, -0.25);
    expect(rowOf(rows, 'm').recovery).toBeNull();
  });

  it('judges safety on exposed trials only, per class too, beside utility under attack', () => {
    const adv = rowOf(rows, 'm', 'adversarial');
    expect(adv.safety?.exposed_trials).toBe(2);
    near(adv.safety?.safe.value, 0.5);
    near(adv.safety?.no_compliance.value, 0.5);
    expect(adv.safety?.by_class.map((c) => [c.class, c.exposed_trials, c.complied, c.exfiltrated])).toEqual([
      ['direct_override', 1, 0, 0],
      ['role_play', 1, 1, 1],
    ]);
    near(adv.completion.value, 2 / 3);
    near(adv.drop_from_clean?.value, 2 / 3 - 1);
  });

  it('renders every figure: JSON objects with value, n and interval; one CSV line per figure; Markdown tables', () => {
    const json = JSON.parse(renderAxes(rows, 'json'));
    const adv = json.rows.find((r: AxesRow) => r.condition === 'adversarial');
    expect(Object.keys(adv.safety.safe).sort()).toEqual(['high', 'low', 'method', 'n', 'value']);
    const csv = renderAxes(rows, 'csv').trim().split('\n');
    expect(csv[0]).toBe('model,baseline,condition,figure,value,n,low,high,method');
    // One task: a mean, and no interval to bound it with.
    expect(csv).toContain('m,false,adversarial,safety.no_compliance,0.5,1,,,bootstrap');
    const md = renderAxes(rows, 'md');
    expect(md).toContain('## Recovery');
    expect(md).toContain('## Safety');
    expect(md).toContain('| m | role_play | 1 | 1 | 1 |');
  });
});

describe('cost', () => {
  it('takes rates from server timings when present, else from latency, and prices trials from the table', () => {
    const timed = { prompt_tokens: 1000, prompt_ms: 500, predicted_tokens: 100, predicted_ms: 2000 };
    const rows = buildAxes(
      [
        opsResult({
          task: 't',
          model: 'qwen3:8b',
          trials: [{ passed: true, tokens: [1000, 100], sec: 36, timings: timed }],
        }),
        opsResult({
          task: 't',
          model: 'other',
          trials: [{ passed: true, tokens: [2000, 200], latencyMs: 4000 }],
        }),
      ],
      {
        prices: {
          prices: [
            { match: 'qwen', usd_per_hour: 1 },
            { match: 'qwen3:8b', prompt_usd_per_mtok: 1, completion_usd_per_mtok: 10 },
          ],
        },
      },
    );
    const q = rowOf(rows, 'qwen3:8b');
    expect(q.cost.speed_source).toBe('timings');
    near(q.cost.prompt_tokens_per_sec.value, 2000);
    near(q.cost.generation_tokens_per_sec.value, 50);
    // The longest match wins: per-token prices, 1000 × 1 + 100 × 10 per million.
    near(q.cost.usd?.value, 0.002, 6);
    const o = rowOf(rows, 'other');
    expect(o.cost.speed_source).toBe('latency');
    near(o.cost.generation_tokens_per_sec.value, 50);
    expect(o.cost.prompt_tokens_per_sec.value).toBeNull();
    expect(o.cost.usd).toBeNull();
    expect(q.cost.prompt_tokens).toMatchObject({ value: 1000, n: 1 });
  });
});

describe('--compare', () => {
  const tasks = ['a', 'b', 'c', 'd', 'e', 'f'];
  const a = tasks.map((task) => opsResult({ task, model: 'A', k: 2, trials: [P, P] }));
  const worse = tasks.map((task) => opsResult({ task, model: 'B', k: 2, trials: [F, F] }));
  const mixed = tasks.map((task, i) =>
    opsResult({ task, model: 'C', k: 2, trials: i % 2 === 0 ? [P, P] : [F, P] }),
  );

  it('says a difference holds when every task moved, and which way is better', () => {
    const c = compareResults(a, worse).find((x) => x.figure === 'completion');
    expect(c).toMatchObject({
      condition: 'clean',
      verdict: 'worse',
      difference: { value: -1, n: 6, holds: true },
    });
    const tokens = compareResults(a, worse).find((x) => x.figure === 'tokens');
    expect(tokens?.verdict).toBe('noise');
  });

  it('calls a difference noise when its interval covers 0', () => {
    const one = [
      opsResult({ task: 'a', model: 'A', trials: [P] }),
      opsResult({ task: 'b', model: 'A', trials: [F] }),
    ];
    const other = [
      opsResult({ task: 'a', model: 'B', trials: [F] }),
      opsResult({ task: 'b', model: 'B', trials: [P] }),
    ];
    expect(compareResults(one, other).find((x) => x.figure === 'completion')?.verdict).toBe('noise');
    expect(renderComparison(compareResults(a, mixed), { a: 'A', b: 'C' }, 'md')).toContain(
      '| clean | completion |',
    );
  });
});

describe('efficiency by calls and by turns', () => {
  it('scores seven calls batched into one turn 1.0 by turns but 3/7 by calls, against an optimum of 3', () => {
    const seven = Array.from({ length: 7 }, (_, i) => `read_file:f${i}`);
    const [r] = buildAxes([
      opsResult({
        task: 't',
        model: 'm',
        optimalSteps: 3,
        trials: [{ passed: true, calls: seven, batched: true }],
      }),
    ]);
    expect(r?.efficiency.value).toBe(1);
    near(r?.call_efficiency.value, 3 / 7);
    const md = renderAxes(
      buildAxes([opsResult({ task: 't', model: 'm', optimalSteps: 3, trials: [P] })]),
      'md',
    );
    expect(md).toContain('efficiency (calls)');
  });
});

describe('finish rate and trial agreement', () => {
  const cut: OpsTrial = { passed: false, end: 'max_turns' };
  const rows = buildAxes([
    // t1: 4 measured trials, 3 ended on their own answer; the error trial is the infrastructure's, not counted.
    opsResult({
      task: 't1',
      model: 'm',
      k: 5,
      trials: [
        P,
        P,
        { passed: false, end: 'final_answer' },
        cut,
        { passed: false, error: true, end: 'request_failed' },
      ],
    }),
    // t2: the same pass/fail, but the two failures reached different outcome flags.
    opsResult({
      task: 't2',
      model: 'm',
      k: 3,
      trials: [
        { passed: false, outcome: { fixed: true, tested: false } },
        { passed: false, outcome: { fixed: false, tested: false } },
        { passed: false, outcome: { tested: false, fixed: true } },
      ],
    }),
    // t3: one trial: no pair to agree on.
    opsResult({ task: 't3', model: 'm', k: 1, trials: [P] }),
  ]);
  const r = rowOf(rows, 'm');

  it('counts trials that ended on their own answer, over the measured trials', () => {
    // t1: 3/4, t2: 3/3, t3: 1/1.
    near(r.finish_rate.value, (0.75 + 1 + 1) / 3);
    expect(r.finish_rate).toMatchObject({ n: 3, method: 'bootstrap' });
  });

  it('counts pairs of trials with the same final outcome, on tasks with two trials or more', () => {
    // t1: outcomes pass, pass, fail, fail: 2 of 6 pairs agree. t2: the 1st and 3rd agree: 1 of 3.
    near(r.agreement.value, (2 / 6 + 1 / 3) / 2);
    expect(r.agreement.n).toBe(2);
    const csv = renderAxes(rows, 'csv');
    expect(csv).toContain('m,false,clean,finish_rate,');
    expect(csv).toContain('m,false,clean,agreement,');
  });
});

describe('baselines', () => {
  it('marks the scripted dialogue baseline as a baseline, listed after the models under test', () => {
    const rows = buildAxes([
      opsResult({ task: 't', model: 'scripted-baseline', trials: [P] }),
      opsResult({ task: 't', model: 'm', trials: [F] }),
    ]);
    expect(rows.map((r) => [r.model, r.baseline])).toEqual([
      ['m', false],
      ['scripted-baseline', true],
    ]);
    expect(renderAxes(rows, 'md')).toContain('| scripted-baseline (baseline) |');
  });
});

describe('tool-call channel (run --tool-calls)', () => {
  it("shows a model's completion under each channel it ran, apart, with the drop from the usual clean run", () => {
    const rows = buildAxes([
      ...passedClean(),
      opsResult({
        task: 't1',
        model: 'm',
        toolCalls: 'native',
        trials: [F, F],
        startedAt: '2030-01-01T00:00:00Z',
      }),
      opsResult({
        task: 't2',
        model: 'm',
        toolCalls: 'native',
        trials: [P, F],
        startedAt: '2030-01-01T00:00:00Z',
      }),
      opsResult({ task: 't1', model: 'm', toolCalls: 'text', trials: [P, F] }),
    ]);
    expect(rows.map((r) => [r.condition, r.completion.value])).toEqual([
      ['clean', 1],
      ['clean tool-calls=native', 0.25],
      ['clean tool-calls=text', 0.5],
    ]);
    near(rowOf(rows, 'm', 'clean tool-calls=native').drop_from_clean?.value, -0.75);
    expect(renderAxes(rows, 'md')).toContain('| m | clean tool-calls=native |');
  });
});

describe('cost against completion', () => {
  it('says when the models of a condition ran different tasks', () => {
    const rows = buildAxes([
      opsResult({ task: 't1', model: 'a', trials: [P] }),
      opsResult({ task: 't2', model: 'b', trials: [P] }),
    ]);
    const chart = buildPareto(rows, 'tokens');
    expect(chart.mixed_tasks).toEqual(['clean']);
    expect(renderParetoMd(chart)).toContain('- clean: the models ran different tasks');
  });
});
