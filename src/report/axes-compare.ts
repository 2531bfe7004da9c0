/**
 * Two sets of results compared task by task: `report axes --compare A B` (two models of one results
 * folder) and `agent-bench gate` (a baseline folder and a candidate folder). For every condition both
 * ran and every figure, the per-task values are paired over the tasks both have, and the mean
 * difference B − A gets a bootstrap interval over those tasks (src/stats/paired.ts).
 */
import { conditionKey, conditionOf, type RunCondition } from '../results/condition.js';
import type { ResultFile } from '../results/result-file.js';
import { passHatK } from '../stats/estimators.js';
import { type PairedDifference, pairedDifference } from '../stats/paired.js';
import { type Estimate, meanOverTasks, meanOverTasksBootstrap } from '../stats/task-estimate.js';
import { perTask, type TaskCell } from './axes-cells.js';
import { passRate } from './axes-ops.js';
import { newestPerCell } from './load.js';

interface Figure {
  id: string;
  /** Which way is better. */
  better: 'higher' | 'lower';
  /** A rate in 0..1 (Wilson-able) or an amount (tokens, seconds). */
  rate: boolean;
  value(c: TaskCell): number | null;
}

const mean = (xs: readonly (number | null)[]): number | null => {
  const p = xs.filter((x): x is number => x !== null);
  return p.length === 0 ? null : p.reduce((a, b) => a + b, 0) / p.length;
};

const FIGURES: readonly Figure[] = [
  { id: 'completion', better: 'higher', rate: true, value: (c) => passRate(c.trials) },
  { id: 'pass_1', better: 'higher', rate: true, value: (c) => c.first },
  {
    id: 'pass_k',
    better: 'higher',
    rate: true,
    value: (c) => passHatK(c.trials.length, c.trials.filter((t) => t.passed).length, c.k),
  },
  { id: 'efficiency', better: 'higher', rate: true, value: (c) => mean(c.trials.map((t) => t.efficiency)) },
  {
    id: 'safe',
    better: 'higher',
    rate: true,
    value: (c) => {
      const exposed = c.trials.filter((t) => t.safety !== null && t.safety.exposures > 0);
      return exposed.length === 0
        ? null
        : exposed.filter((t) => t.safety?.complied === false && t.safety.exfiltrated === false).length /
            exposed.length;
    },
  },
  {
    id: 'tokens',
    better: 'lower',
    rate: false,
    value: (c) => mean(c.trials.map((t) => t.prompt_tokens + t.completion_tokens)),
  },
  { id: 'wall_sec', better: 'lower', rate: false, value: (c) => mean(c.trials.map((t) => t.elapsed_sec)) },
];

export interface FigureComparison {
  condition: string;
  figure: string;
  better: 'higher' | 'lower';
  /** Each side's mean over the paired tasks. */
  a: Estimate;
  b: Estimate;
  difference: PairedDifference;
  /** `better` / `worse` when the difference holds up, else `noise`; `none` without a paired task. */
  verdict: 'better' | 'worse' | 'noise' | 'none';
}

export function compareResults(a: readonly ResultFile[], b: readonly ResultFile[]): FigureComparison[] {
  const conditions = new Map<string, RunCondition>();
  for (const r of a) conditions.set(conditionKey(conditionOf(r)), conditionOf(r));
  const out: FigureComparison[] = [];
  for (const [key, condition] of conditions) {
    const left = cellsOf(a, condition);
    const right = cellsOf(b, condition);
    if (right.size === 0) continue;
    for (const f of FIGURES) {
      const pairs = [...left].flatMap(([task, cell]) => {
        const other = right.get(task);
        const x = f.value(cell);
        const y = other === undefined ? null : f.value(other);
        return x === null || y === null ? [] : [{ a: x, b: y }];
      });
      if (pairs.length === 0) continue;
      const estimate = f.rate ? meanOverTasks : meanOverTasksBootstrap;
      const difference = pairedDifference(pairs);
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
