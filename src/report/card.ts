/**
 * `report card`: one model's page. What it passes, where it is strong, and for each failed task which
 * flags it missed, with an excerpt of a failing transcript as evidence.
 */

import { trialBasis } from '../results/comparison.js';
import type { ResultFile } from '../results/result-file.js';
import { buildRadarData, type RadarData } from './axes.js';
import { buildAxes } from './axes-ops.js';
import { type DimensionRow, dimensionRows } from './dimensions.js';
import { type TrialExcerpt, trialExcerpt } from './excerpt.js';
import { fixed } from './format.js';
import type { LadderChart } from './ladder-chart.js';
import { type LoadedResult, sortedUnique } from './load.js';
import { buildMatrix, type MatrixCell } from './matrix.js';
import { buildPareto, type ParetoChart } from './pareto.js';
import { type ResultSummary, summarizeResult } from './summary.js';
import { computeTiers, isJudged, TIER_NAMES, tasksRunNote } from './tiers.js';

interface MissedFlag {
  flag: string;
  kind: 'process' | 'outcome';
  reach_rate: number;
}

interface CardFailure {
  task: string;
  file: string;
  cell: MatrixCell;
  /** The trials the reach rates of `missed` come from: "2 of k=5 trials, early-stopped". */
  basis: string;
  missed: MissedFlag[];
  example: TrialExcerpt | null;
}

export interface ModelCard {
  model: string;
  /** From computeTiers over the card's suite (the tier rules live in tiers.ts, not here). */
  tier: { label: string; reasons: string[] } | null;
  cells: MatrixCell[];
  radar: RadarData;
  /** Completion against tokens per trial of every model that ran the suite, this one among them. */
  pareto: ParetoChart;
  /** The newest ladder with a rung of this model (found by the command: buildCard reads no files). */
  ladder?: LadderChart;
  strengths: string[];
  weaknesses: string[];
  /** Axes with no evidence ("Tamper-free n/a"): shown as such, never as strengths. */
  unmeasured: string[];
  /** What the numbers come from where that differs between tasks: early stops, different k. */
  notes: string[];
  failures: CardFailure[];
  /** Dialogue tasks by policy dimension (empty without them). */
  dimensions: DimensionRow[];
  totals: {
    /** Tasks run (see isJudged): the ones passed_tasks counts against. */
    tasks: number;
    /** The suite the card covers; more than `tasks` when the model ran only part of it. */
    suite: number;
    passed_tasks: number;
    trials: number;
    passed_trials: number;
    tamper: number;
    hallucinated: number;
  };
  environment: { server: string | null; harness_version: string; base_url: string | null } | null;
}

const STRONG = 0.8;
const WEAK = 0.5;

/**
 * Null when the model has no results for the suite: `tasks` when given, else every task with results.
 * The card covers the tasks the model ran; those it did not run are no failures (the tier notes count them).
 */
export function buildCard(
  everything: readonly LoadedResult[],
  model: string,
  tasks?: readonly string[],
  /** Task id -> domain, for the radar's domain spokes (axes.ts taskDomain). */
  domains: ReadonlyMap<string, string> = new Map(),
): ModelCard | null {
  const suite = tasks === undefined ? sortedUnique(everything.map((l) => l.result.task_id)) : [...tasks];
  const loaded = everything.filter((l) => suite.includes(l.result.task_id));
  const summaries = loaded.map((l) => summarizeResult(l.file, l.result));
  const matrix = buildMatrix(summaries, [model]);
  if (matrix.cells.length === 0) return null;
  const byFile = new Map(loaded.map((l) => [l.file, l.result]));
  const shown = new Set(matrix.cells.map((c) => c.file));
  // An unfinished run is shown in the task table but judged nowhere: no failure, not in the totals.
  const judged = (file: string): boolean => {
    const r = byFile.get(file);
    return r !== undefined && isJudged(r);
  };
  const radar = buildRadarData(summaries, [model], domains);
  const values = radar.series[0]?.values ?? [];
  const scored = radar.axes.map((axis, i) => ({ label: axis.label, v: values[i] ?? null }));
  const fmt = (a: { label: string; v: number | null }): string =>
    `${a.label} ${a.v === null ? 'n/a' : fixed(a.v, 2)}`;
  const latest = summaries
    .filter((s) => shown.has(s.file))
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at))[0];
  const latestEnv = latest === undefined ? undefined : byFile.get(latest.file)?.environment;
  return {
    model,
    tier: tierOf(loaded, model, suite),
    cells: matrix.cells,
    radar,
    pareto: buildPareto(buildAxes(loaded.map((l) => l.result)), 'tokens'),
    strengths: scored
      .filter((a) => a.v !== null && a.v >= STRONG)
      .sort(byValueDesc)
      .map(fmt),
    weaknesses: scored
      .filter((a) => a.v !== null && a.v < WEAK)
      .sort((a, b) => byValueDesc(b, a))
      .map(fmt),
    unmeasured: scored.filter((a) => a.v === null).map(fmt),
    notes: [...notesOf(matrix.cells), ...instancesNote(matrix.cells, byFile)],
    dimensions: dimensionRows(matrix.cells),
    failures: matrix.cells.flatMap((cell) => {
      const r = byFile.get(cell.file);
      return r === undefined || cell.pass_all_k || !judged(cell.file) ? [] : [failureOf(cell, r)];
    }),
    totals: totalsOf(
      summaries.filter((s) => shown.has(s.file) && judged(s.file)),
      suite.length,
    ),
    environment:
      latest === undefined || latestEnv === undefined
        ? null
        : {
            server: latestEnv.server?.kind ?? null,
            harness_version: latestEnv.harness_version,
            base_url: latest.base_url,
          },
  };
}

/** " (3/16 tasks run)" when the model ran only part of the card's suite, else nothing. */
export function runNote(card: ModelCard): string {
  return card.totals.tasks < card.totals.suite
    ? ` (${tasksRunNote(card.totals.tasks, card.totals.suite)})`
    : '';
}

function failureOf(cell: MatrixCell, r: ResultFile): CardFailure {
  const missed = Object.entries(r.skills)
    .filter(([, s]) => s.reach_rate < 1)
    .map(([flag, s]) => ({ flag, kind: s.kind, reach_rate: s.reach_rate }))
    .sort((a, b) => a.reach_rate - b.reach_rate || a.flag.localeCompare(b.flag));
  // The failing trial with the lowest score is the clearest example of what went wrong.
  const failing = r.trials.filter((t) => !t.passed).sort((a, b) => a.score - b.score || a.index - b.index)[0];
  return {
    task: cell.task,
    file: cell.file,
    cell,
    basis: trialBasis(r),
    missed,
    example: failing === undefined ? null : trialExcerpt(failing),
  };
}

/** Early-stopped tasks, and the k values when the tasks were not all run at the same one. */
function notesOf(cells: readonly MatrixCell[]): string[] {
  const notes: string[] = [];
  const early = cells.filter((c) => c.early_stopped);
  if (early.length > 0)
    notes.push(
      `early-stopped (scores and reach rates from fewer than k trials): ${early.map((c) => `${c.task} (${c.score_basis})`).join(', ')}`,
    );
  const keys = sortedUnique(cells.map((c) => c.comparison));
  if (keys.length > 1)
    notes.push(
      `tasks run at different settings: ${keys
        .map(
          (k) =>
            `${k} (${cells
              .filter((c) => c.comparison === k)
              .map((c) => c.task)
              .join(', ')})`,
        )
        .join('; ')}`,
    );
  return notes;
}

/**
 * Variant tasks: how many distinct instances the trials behind each figure ran (a trial is a fresh
 * instance unless the run replayed one with --variant), so pass^k reads as "this kind of task".
 */
function instancesNote(cells: readonly MatrixCell[], byFile: ReadonlyMap<string, ResultFile>): string[] {
  const parts: string[] = [];
  for (const cell of cells) {
    const trials = byFile.get(cell.file)?.trials ?? [];
    const drawn = trials.flatMap((t) => (t.variant === undefined ? [] : [t.variant]));
    if (drawn.length === 0) continue;
    const distinct = new Set(drawn).size;
    parts.push(
      `${cell.task} (${drawn.length} trial${drawn.length === 1 ? '' : 's'} on ${distinct} distinct instance${distinct === 1 ? '' : 's'})`,
    );
  }
  return parts.length === 0 ? [] : [`seeded variants: ${parts.join(', ')}`];
}

function tierOf(loaded: readonly LoadedResult[], model: string, suite: readonly string[]): ModelCard['tier'] {
  const row = computeTiers(
    loaded.map((l) => l.result),
    suite,
  ).find((r) => r.model === model);
  if (row === undefined) return null;
  const label = row.tier === null ? 'no tier (no task run)' : `Tier ${row.tier}: ${TIER_NAMES[row.tier]}`;
  // The card's headline says how many tasks were run; the tier notes need not say it again.
  const runNote = tasksRunNote(row.tasksRun, row.suiteSize);
  return { label, reasons: row.reasons.filter((r) => r !== runNote) };
}

function totalsOf(s: readonly ResultSummary[], suite: number): ModelCard['totals'] {
  const sum = (f: (x: ResultSummary) => number): number => s.reduce((a, x) => a + f(x), 0);
  return {
    tasks: s.length,
    suite,
    passed_tasks: s.filter((x) => x.pass_all_k).length,
    trials: sum((x) => x.trials_run),
    passed_trials: sum((x) => x.passed_trials),
    tamper: sum((x) => x.tamper_detected_count),
    hallucinated: sum((x) => x.invalid_tool_call_count),
  };
}

const byValueDesc = (a: { v: number | null }, b: { v: number | null }): number => (b.v ?? 0) - (a.v ?? 0);
