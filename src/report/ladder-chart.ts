/**
 * The ladder's picture (`ladder-<run>.svg`, `report card`, the dashboard): each measured rung as a
 * point, pass rate with its interval against memory, the target, the chosen rung, and the Pareto
 * front of memory × pass rate (pareto.ts's dominance). Read from a ladder summary file through the
 * few fields it needs: reports never import the ladder, they read what it wrote.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { clopperPearson } from '../stats/clopper-pearson.js';
import type { Estimate } from '../stats/task-estimate.js';
import { dominates } from './pareto.js';

/** What the x axis is, the same for every point: measured when every point was, else the best estimate every point has. */
export type LadderMemoryAxis = 'peak' | 'estimate' | 'file';

interface LadderChartPoint {
  /** The rung's label (`beta-8b-Q6_K@ctx8192-kv-q8_0`). */
  label: string;
  /** What the chart writes beside the point: quantization and configuration (`Q6_K ctx8192 kv-q8_0`). */
  short: string;
  memoryBytes: number;
  /** Passed of measured trials, and the interval around it. */
  rate: number;
  low: number;
  high: number;
  trials: number;
  /** Generation tokens per second (llama-server's timings); the point's size. Null: not measured. */
  generationTps: number | null;
  status: string;
  chosen: boolean;
  onFront: boolean;
}

export interface LadderChart {
  runId: string;
  updatedAt: string;
  /** Every model name the rungs' results files carry (a card finds its model's ladders by it). */
  models: string[];
  suite: string;
  /** 1 for a pass^k ladder: every trial must pass. */
  target: number;
  confidence: number;
  /** `sequential`: the rule's one-sided bounds; `two-sided`: Clopper–Pearson at the confidence. */
  interval: 'sequential' | 'two-sided';
  axis: LadderMemoryAxis;
  points: LadderChartPoint[];
  /** Rungs not on the chart and why (not run, nothing measured, no memory figure). */
  leftOut: { label: string; reason: string }[];
  verdict: string | null;
}

/** The pass^k ladder has no --confidence: its intervals are drawn at this one. */
const DEFAULT_CONFIDENCE = 0.9;

const count = z.int().min(0);
const RungFields = z.object({
  model: z.string(),
  model_id: z.string(),
  results_model: z.string().nullable(),
  status: z.string(),
  quantization: z.string().nullable(),
  size_bytes: z.number().nullable(),
  ctx: z.number().nullable().optional(),
  cache_type: z.string().nullable().optional(),
  memory_estimate_bytes: z.number().nullable().optional(),
  server_peak_rss_bytes: z.number().nullable().optional(),
  speed: z.object({ generation_tps: z.number().nullable() }).optional(),
  tasks: z.record(z.string(), z.object({ trials_run: count, trials_passed: count })),
  sequential: z.object({ passed: count, measured: count, lower: z.number(), upper: z.number() }).optional(),
});
const SummaryFields = z.object({
  schema: z.literal('agent-bench/ladder@1'),
  run_id: z.string(),
  suite: z.string(),
  updated_at: z.string(),
  target: z.number().optional(),
  confidence: z.number().optional(),
  rungs: z.array(RungFields),
  passing: z.array(z.string()),
  verdict: z.string().nullable(),
});
type RungFields = z.infer<typeof RungFields>;

/** The chart of a ladder summary file; a one-line reason when the file is not one. */
export async function readLadderChart(path: string): Promise<LadderChart | { problem: string }> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    return { problem: `${path}: ${err instanceof SyntaxError ? 'not valid JSON' : 'cannot be read'}` };
  }
  const parsed = SummaryFields.safeParse(raw);
  if (!parsed.success) return { problem: `${path}: not a ladder summary` };
  return buildLadderChart(parsed.data);
}

export function buildLadderChart(s: z.infer<typeof SummaryFields>): LadderChart {
  const confidence = s.confidence ?? DEFAULT_CONFIDENCE;
  const leftOut: LadderChart['leftOut'] = [];
  const measured = s.rungs.filter((r) => {
    const why = r.status === 'not_run' ? 'not run' : trialsOf(r).n === 0 ? 'nothing measured' : null;
    if (why !== null) leftOut.push({ label: r.model, reason: why });
    return why === null;
  });
  const axis = axisOf(measured);
  const chosen = s.passing[0] ?? null;
  const points = measured.flatMap((r): LadderChartPoint[] => {
    const memoryBytes = memoryOf(r, axis);
    if (memoryBytes === null) {
      leftOut.push({ label: r.model, reason: 'no memory figure' });
      return [];
    }
    const { passed, n } = trialsOf(r);
    // A two-sided interval at C is two one-sided bounds at (1 + C) / 2.
    const bounds = r.sequential ?? clopperPearson(passed, n, (1 + confidence) / 2);
    return [
      {
        label: r.model,
        short: shortLabel(r),
        memoryBytes,
        rate: passed / n,
        low: bounds.lower,
        high: bounds.upper,
        trials: n,
        generationTps: r.speed?.generation_tps ?? null,
        status: r.status,
        chosen: r.model === chosen,
        onFront: false,
      },
    ];
  });
  // Less memory is the lower cost; the pass rate is what is completed.
  const asPareto = (p: LadderChartPoint) => ({ completion: estimate(p.rate), cost: estimate(p.memoryBytes) });
  for (const p of points) p.onFront = !points.some((q) => q !== p && dominates(asPareto(q), asPareto(p)));
  return {
    runId: s.run_id,
    updatedAt: s.updated_at,
    models: [
      ...new Set(
        s.rungs.flatMap((r) => [r.model_id, ...(r.results_model === null ? [] : [r.results_model])]),
      ),
    ],
    suite: s.suite,
    target: s.target ?? 1,
    confidence,
    interval: s.rungs.some((r) => r.sequential !== undefined) ? 'sequential' : 'two-sided',
    axis,
    points,
    leftOut,
    verdict: s.verdict,
  };
}

const estimate = (value: number): Estimate => ({ value, n: 1, low: null, high: null, method: null });

/** A sequential rung's pooled trials; a pass^k rung's trials over its tasks. */
function trialsOf(r: RungFields): { passed: number; n: number } {
  if (r.sequential !== undefined) return { passed: r.sequential.passed, n: r.sequential.measured };
  const tasks = Object.values(r.tasks);
  return {
    passed: tasks.reduce((a, t) => a + t.trials_passed, 0),
    n: tasks.reduce((a, t) => a + t.trials_run, 0),
  };
}

function axisOf(rungs: readonly RungFields[]): LadderMemoryAxis {
  if (rungs.length > 0 && rungs.every((r) => (r.server_peak_rss_bytes ?? null) !== null)) return 'peak';
  if (rungs.length > 0 && rungs.every((r) => (r.memory_estimate_bytes ?? null) !== null)) return 'estimate';
  return 'file';
}

function memoryOf(r: RungFields, axis: LadderMemoryAxis): number | null {
  if (axis === 'peak') return r.server_peak_rss_bytes ?? null;
  if (axis === 'estimate') return r.memory_estimate_bytes ?? null;
  return r.size_bytes;
}

/** `Q6_K ctx8192 kv-q8_0`; the rung's label when its quantization is unknown. */
function shortLabel(r: RungFields): string {
  const config = [
    r.ctx === undefined || r.ctx === null ? null : `ctx${r.ctx}`,
    r.cache_type === undefined || r.cache_type === null ? null : `kv-${r.cache_type}`,
  ].filter((p) => p !== null);
  return [r.quantization ?? r.model.replace(/@.*$/, ''), ...config].join(' ');
}

/** `ladder-<run>.json` files of a results folder, read as charts; those that are not ladders are skipped. */
export async function readLadderCharts(dir: string): Promise<LadderChart[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => /^ladder-.+\.json$/.test(n));
  const charts = await Promise.all(names.sort().map((n) => readLadderChart(join(dir, n))));
  return charts.filter((c): c is LadderChart => !('problem' in c));
}

/** The newest ladder with a rung of this model, or null. */
export function newestLadderOf(charts: readonly LadderChart[], model: string): LadderChart | null {
  const mine = charts.filter((c) => c.models.includes(model));
  return mine.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0] ?? null;
}
