/**
 * Two sets of results compared task by task: `report axes --compare A B` (two models of one results
 * folder) and `agent-bench gate` (a baseline folder and a candidate folder). For every condition both
 * ran and every figure, the per-task values are paired over the tasks both have, and the mean
 * difference B − A gets a bootstrap interval over those tasks (src/stats/paired.ts). A figure made of
 * pass/fail trials (completion, safety) uses the trials as evidence too (src/stats/trial-test.ts): its
 * verdict is an exact test on the trials within the paired tasks, its interval a two-stage bootstrap
 * (tasks, then trials within them), so one task run k times can show a difference.
 */
import type { RunCondition } from '../results/condition.js';
import type { ResultFile } from '../results/result-file.js';
import { passHatK } from '../stats/estimators.js';
import { type PairedDifference, pairedDifference } from '../stats/paired.js';
import { type Estimate, meanOverTasks, meanOverTasksBootstrap } from '../stats/task-estimate.js';
import {
  ALPHA,
  clusterBootstrapDifference,
  smallestDetectableDrop,
  type TaskTrials,
  trialTest,
} from '../stats/trial-test.js';
import { axesConditions, perTask, type TaskCell } from './axes-cells.js';
import { agreement, finishRate, passRate } from './axes-ops.js';
import { newestPerCell } from './load.js';

interface Figure {
  id: string;
  /** Which way is better. */
  better: 'higher' | 'lower';
  /** A rate in 0..1 (Wilson-able) or an amount (tokens, seconds). */
  rate: boolean;
  value(c: TaskCell): number | null;
  /** For a rate of pass/fail trials: the task's trials and how many of them count as passed. */
  trials?(c: TaskCell): { n: number; passed: number } | null;
}

const mean = (xs: readonly (number | null)[]): number | null => {
  const p = xs.filter((x): x is number => x !== null);
  return p.length === 0 ? null : p.reduce((a, b) => a + b, 0) / p.length;
};

const FIGURES: readonly Figure[] = [
  {
    id: 'completion',
    better: 'higher',
    rate: true,
    value: (c) => passRate(c.trials),
    trials: (c) => ({ n: c.trials.length, passed: c.trials.filter((t) => t.passed).length }),
  },
  { id: 'pass_1', better: 'higher', rate: true, value: (c) => c.first },
  {
    id: 'pass_k',
    better: 'higher',
    rate: true,
    value: (c) => passHatK(c.trials.length, c.trials.filter((t) => t.passed).length, c.k),
  },
  { id: 'efficiency', better: 'higher', rate: true, value: (c) => mean(c.trials.map((t) => t.efficiency)) },
  {
    id: 'call_efficiency',
    better: 'higher',
    rate: true,
    value: (c) => mean(c.trials.map((t) => t.call_efficiency)),
  },
  { id: 'finish_rate', better: 'higher', rate: true, value: (c) => finishRate(c.trials) },
  { id: 'agreement', better: 'higher', rate: true, value: (c) => agreement(c.trials) },
  {
    id: 'safe',
    better: 'higher',
    rate: true,
    value: (c) => {
      const t = safeTrials(c);
      return t === null ? null : t.passed / t.n;
    },
    trials: (c) => safeTrials(c),
  },
  {
    id: 'tokens',
    better: 'lower',
    rate: false,
    value: (c) => mean(c.trials.map((t) => t.prompt_tokens + t.completion_tokens)),
  },
  // The model's own time: its replies' latency, which the harness's work on a busy machine does not add to.
  {
    id: 'model_sec',
    better: 'lower',
    rate: false,
    value: (c) => mean(c.trials.map((t) => t.model_latency_ms / 1000)),
  },
  { id: 'wall_sec', better: 'lower', rate: false, value: (c) => mean(c.trials.map((t) => t.elapsed_sec)) },
];

/** Trials exposed to an injection, and those that neither complied nor leaked: null without exposure. */
function safeTrials(c: TaskCell): { n: number; passed: number } | null {
  const exposed = c.trials.filter((t) => t.safety !== null && t.safety.exposures > 0);
  if (exposed.length === 0) return null;
  const safe = exposed.filter((t) => t.safety?.complied === false && t.safety.exfiltrated === false);
  return { n: exposed.length, passed: safe.length };
}

/** A difference in a rate of trials, with what the trials say of it. */
export interface TrialDifference extends PairedDifference {
  /** Two-sided exact p on the trials within the paired tasks; holds is p < ALPHA. */
  p: number;
  /** Trials behind it on each side. */
  trials: { a: number; b: number };
  /** The smallest drop the test could have flagged with these trials (null: none could be). */
  detectableDrop: number | null;
}

export interface FigureComparison {
  condition: string;
  figure: string;
  better: 'higher' | 'lower';
  /** Each side's mean over the paired tasks. */
  a: Estimate;
  b: Estimate;
  difference: PairedDifference | TrialDifference;
  /** `better` / `worse` when the difference holds up, else `noise`; `none` without a paired task. */
  verdict: 'better' | 'worse' | 'noise' | 'none';
}

export function compareResults(a: readonly ResultFile[], b: readonly ResultFile[]): FigureComparison[] {
  const right = axesConditions(b);
  const out: FigureComparison[] = [];
  for (const [key, group] of axesConditions(a)) {
    const theirs = right.get(key);
    if (theirs === undefined) continue;
    const left = cellsOf(group.results, group.condition);
    const other = cellsOf(theirs.results, theirs.condition);
    if (other.size === 0) continue;
    for (const f of FIGURES) {
      const paired = [...left].flatMap(([task, cell]) => {
        const mate = other.get(task);
        return mate === undefined ? [] : [{ a: cell, b: mate }];
      });
      const pairs = paired.flatMap(({ a: x, b: y }) => {
        const va = f.value(x);
        const vb = f.value(y);
        return va === null || vb === null ? [] : [{ a: va, b: vb }];
      });
      if (pairs.length === 0) continue;
      const estimate = f.rate ? meanOverTasks : meanOverTasksBootstrap;
      const difference = f.trials === undefined ? pairedDifference(pairs) : trialDifference(paired, f.trials);
      out.push({
        condition: key,
        figure: f.id,
        better: f.better,
        a: estimate(pairs.map((p) => p.a)),
        b: estimate(pairs.map((p) => p.b)),
        difference,
        verdict: verdictOf(difference, f.better),
      });
    }
  }
  return out;
}

function trialDifference(
  paired: readonly { a: TaskCell; b: TaskCell }[],
  trialsOf: (c: TaskCell) => { n: number; passed: number } | null,
): TrialDifference {
  const tasks: TaskTrials[] = paired.flatMap(({ a, b }) => {
    const ta = trialsOf(a);
    const tb = trialsOf(b);
    return ta === null || tb === null || ta.n === 0 || tb.n === 0 ? [] : [{ a: ta, b: tb }];
  });
  const test = trialTest(tasks);
  const { low, high } = clusterBootstrapDifference(tasks);
  return {
    value: test.value,
    n: test.tasks,
    low,
    high,
    method: 'cluster-bootstrap',
    holds: test.p < ALPHA,
    p: test.p,
    trials: test.trials,
    detectableDrop: smallestDetectableDrop(tasks),
  };
}

function verdictOf(d: PairedDifference, better: 'higher' | 'lower'): FigureComparison['verdict'] {
  if (d.value === null) return 'none';
  if (!d.holds) return 'noise';
  return d.value > 0 === (better === 'higher') ? 'better' : 'worse';
}

/** Task id -> the newest result's cell, of one condition (results of one model). */
function cellsOf(results: readonly ResultFile[], condition: RunCondition): Map<string, TaskCell> {
  const out = new Map<string, TaskCell>();
  for (const r of newestPerCell(results, (x) => x, condition).values()) {
    const cell = perTask(r);
    if (cell !== null) out.set(r.task_id, cell);
  }
  return out;
}
