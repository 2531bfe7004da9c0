/**
 * Cost against completion (`report axes --pareto`): each (model, condition) row as a point, completion
 * with its interval against its cost per trial, and per condition the Pareto front of the models under
 * test: a point is dominated when another of the same condition completes at least as much at no more
 * cost, and better on one of the two. Baselines are drawn for reference but never on the front and
 * never dominate: a scripted agent is no choice a user can make. Costs of different conditions are
 * never compared (a noisy run pays for its faults).
 */
import type { Estimate } from '../stats/task-estimate.js';
import type { AxesRow } from './axes-ops.js';

/** Tokens (prompt + completion), USD (needs a price table) or wall seconds (what a local model costs). */
export const PARETO_COSTS = ['tokens', 'usd', 'wall_sec'] as const;
export type ParetoCost = (typeof PARETO_COSTS)[number];

export interface ParetoPoint {
  model: string;
  condition: string;
  baseline: boolean;
  completion: Estimate;
  /** Per trial, in the chart's unit; null value when the row has none (no price for the model). */
  cost: Estimate;
  on_front: boolean;
  /** The same condition's models under test that dominate this one, best completion first. */
  dominated_by: string[];
}

export interface ParetoChart {
  cost: ParetoCost;
  points: ParetoPoint[];
  /** Per point on the front: `model [condition]`. */
  front: { model: string; condition: string }[];
  /** One sentence per dominated point: "A is dominated by B: lower completion at higher cost". */
  dominated: { model: string; condition: string; by: string; sentence: string }[];
  /** Rows left off the chart, and why (no cost or no completion). */
  left_out: { model: string; condition: string; reason: string }[];
  /** Conditions whose models under test ran different tasks: their completions are over different suites. */
  mixed_tasks: string[];
}

export function buildPareto(rows: readonly AxesRow[], cost: ParetoCost): ParetoChart {
  const left_out: ParetoChart['left_out'] = [];
  const points: ParetoPoint[] = [];
  const suites = new Map<string, Set<string>>();
  for (const r of rows)
    if (!r.baseline)
      suites.set(r.condition, (suites.get(r.condition) ?? new Set()).add(r.tasks.join('\u0000')));
  for (const r of rows) {
    const c = costOf(r, cost);
    if (c === null || c.value === null || r.completion.value === null) {
      left_out.push({
        model: r.model,
        condition: r.condition,
        reason: r.completion.value === null ? 'no completion' : `no ${cost} figure`,
      });
      continue;
    }
    points.push({
      model: r.model,
      condition: r.condition,
      baseline: r.baseline,
      completion: r.completion,
      cost: c,
      on_front: false,
      dominated_by: [],
    });
  }
  for (const p of points) {
    if (p.baseline) continue;
    const better = points
      .filter((q) => !q.baseline && q.condition === p.condition && q !== p && dominates(q, p))
      .sort((a, b) => value(b.completion) - value(a.completion) || value(a.cost) - value(b.cost));
    p.dominated_by = better.map((q) => q.model);
    p.on_front = better.length === 0;
  }
  return {
    cost,
    points,
    front: points.filter((p) => p.on_front).map(({ model, condition }) => ({ model, condition })),
    dominated: points.flatMap((p) => {
      const by = p.dominated_by[0];
      if (by === undefined) return [];
      const q = points.find((x) => x.model === by && x.condition === p.condition) as ParetoPoint;
      return [{ model: p.model, condition: p.condition, by, sentence: sentence(p, q) }];
    }),
    left_out,
    mixed_tasks: [...suites].filter(([, tasks]) => tasks.size > 1).map(([condition]) => condition),
  };
}

function costOf(r: AxesRow, cost: ParetoCost): Estimate | null {
  if (cost === 'usd') return r.cost.usd;
  return cost === 'tokens' ? r.cost.tokens : r.cost.wall_sec;
}

const value = (e: Estimate): number => e.value ?? 0;

/** q dominates p: completes at least as much at no more cost, and is better on one of the two. */
export function dominates(
  q: Pick<ParetoPoint, 'completion' | 'cost'>,
  p: Pick<ParetoPoint, 'completion' | 'cost'>,
): boolean {
  const [qc, pc, qx, px] = [value(q.completion), value(p.completion), value(q.cost), value(p.cost)];
  return qc >= pc && qx <= px && (qc > pc || qx < px);
}

function sentence(p: ParetoPoint, q: ParetoPoint): string {
  const lower = value(p.completion) < value(q.completion);
  const higher = value(p.cost) > value(q.cost);
  const how =
    lower && higher
      ? 'lower completion at higher cost'
      : lower
        ? 'lower completion at the same cost'
        : 'the same completion at higher cost';
  const under = p.condition === 'clean' ? '' : ` (${p.condition})`;
  return `${p.model} is dominated by ${q.model}${under}: ${how}`;
}
