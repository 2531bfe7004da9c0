/**
 * Read-only JSON routes over the results folder. The index carries summaries only; a result's trial list
 * and one trial's transcript are fetched on demand, so thousands of trials open quickly.
 */
import type { ServerResponse } from 'node:http';
import { buildRadarData } from '../report/axes.js';
import { buildAxes } from '../report/axes-ops.js';
import { METHOD_NOTE } from '../report/axes-render.js';
import { axesTables } from '../report/axes-tables.js';
import { DIMENSIONS_FOOTNOTE, dimensionRows } from '../report/dimensions.js';
import { newestPerCell } from '../report/load.js';
import { buildMatrix } from '../report/matrix.js';
import { buildPareto, PARETO_COSTS } from '../report/pareto.js';
import { renderParetoSvg } from '../report/pareto-render.js';
import { MAX_SERIES, renderRadarSvg } from '../report/radar-svg.js';
import { type ResultSummary, withoutCredentials } from '../report/summary.js';
import { CLEAN, conditionKey, conditionOf, type RunCondition } from '../results/condition.js';
import type { ResultFile } from '../results/result-file.js';
import { ambiguousModel, matchModelName, shortModelNames } from '../results/short-model-name.js';
import type { TrialRecord } from '../results/trial.js';
import { listArtifacts } from './artifacts.js';
import type { DashboardState } from './dashboard-state.js';
import { BASE_HEADERS, sendError, sendJson } from './http-util.js';
import type { ResultIndex } from './result-index.js';

export interface ReadContext {
  resultsDir: string;
  index: ResultIndex;
  state: DashboardState;
  /** Task id -> domain from the task catalogue (the radar groups spokes by it); absent: derived. */
  taskDomains?: () => Promise<ReadonlyMap<string, string>>;
}

/**
 * Every summary, marked hidden or not; `newest` is the newest visible clean run per cell (what the
 * matrix shows). Each carries the name its model is shown by (`label`, short-model-name.ts: unique
 * over the folder) and its condition's key (`clean`, `noisy@0.2`), so the page lists like with like.
 */
export async function getIndex(res: ServerResponse, ctx: ReadContext): Promise<void> {
  const summaries = await ctx.index.summaries();
  const hidden = await ctx.state.hidden();
  const visible = summaries.filter((s) => !hidden.has(s.file));
  const newest = new Set([...newestPerCell(visible, (s) => s).values()].map((s) => s.file));
  const labels = shortModelNames(summaries.map((s) => s.model));
  sendJson(res, 200, {
    results: summaries.map((s) => ({
      ...s,
      label: labels.get(s.model) ?? s.model,
      condition_key: conditionKey(s.condition),
      newest: newest.has(s.file),
      hidden: hidden.has(s.file),
    })),
  });
}

/** Hidden runs are left out of every view built from the newest run per cell. */
async function visibleSummaries(ctx: ReadContext): Promise<ResultSummary[]> {
  const [summaries, hidden] = await Promise.all([ctx.index.summaries(), ctx.state.hidden()]);
  return summaries.filter((s) => !hidden.has(s.file));
}

/** One result with its trials' headers (no turn logs, no final answers). */
export async function getResult(res: ServerResponse, ctx: ReadContext, file: string): Promise<void> {
  const result = await ctx.index.read(file);
  if (result === null) return sendError(res, 404, 'no such results file');
  const { trials, environment, ...rest } = result;
  sendJson(res, 200, {
    ...rest,
    file,
    environment: { ...environment, base_url: withoutCredentials(environment?.base_url ?? null) },
    trials: trials.map(trialHeader),
  });
}

function trialHeader(t: TrialRecord): Omit<TrialRecord, 'turn_logs' | 'final_answer'> {
  const { turn_logs: _logs, final_answer: _answer, ...header } = t;
  return header;
}

export async function getTrial(
  res: ServerResponse,
  ctx: ReadContext,
  file: string,
  index: number,
): Promise<void> {
  const result = await ctx.index.read(file);
  const trial = result?.trials.find((t) => t.index === index);
  if (result === null || trial === undefined) return sendError(res, 404, 'no such trial');
  const artifacts = await listArtifacts(
    ctx.resultsDir,
    result.task_id,
    result.model,
    trial,
    conditionOf(result),
  );
  sendJson(res, 200, { file, task_id: result.task_id, model: result.model, trial, artifacts });
}

/**
 * What each model built for one task under one condition (newest result per model), for side-by-side
 * previews: like with like, so a noisy or adversarial run never sits beside a clean one. `conditions`
 * lists every condition the task ran under, for the page's choice.
 */
export async function getCompare(
  res: ServerResponse,
  ctx: ReadContext,
  task: string,
  condition: string,
): Promise<void> {
  const summaries = (await visibleSummaries(ctx)).filter((s) => s.task_id === task);
  const byKey = new Map(summaries.map((s) => [conditionKey(s.condition), s.condition]));
  const chosen = byKey.get(condition) ?? CLEAN;
  const labels = shortModelNames(summaries.map((s) => s.model));
  const cells = [...newestPerCell(summaries, (s) => s, chosen).values()].sort((a, b) =>
    a.model.localeCompare(b.model),
  );
  const models = await Promise.all(
    cells.map(async (s) => {
      const result = await ctx.index.read(s.file);
      const trials = await Promise.all(
        (result?.trials ?? []).map(async (t) => ({
          index: t.index,
          passed: t.passed,
          score: t.score,
          artifacts: await listArtifacts(ctx.resultsDir, s.task_id, s.model, t, s.condition),
        })),
      );
      const label = labels.get(s.model) ?? s.model;
      return { model: s.model, label, file: s.file, pass_all_k: s.pass_all_k, score: s.score, trials };
    }),
  );
  const conditions = [...byKey.keys()].sort((a, b) =>
    a === 'clean' ? -1 : b === 'clean' ? 1 : a.localeCompare(b),
  );
  sendJson(res, 200, { task, condition: conditionKey(chosen), conditions, models });
}

export function radarModels(param: string | null): string[] | null {
  const models = (param ?? '').split(',').filter((m) => m !== '');
  return models.length === 0 || models.length > MAX_SERIES ? null : models;
}

/** The radar of the models named (full or short names; a name of no model is drawn empty). */
export async function getRadar(
  res: ServerResponse,
  ctx: ReadContext,
  typed: string[],
  svg: boolean,
): Promise<void> {
  const summaries = await visibleSummaries(ctx);
  const known = summaries.map((s) => s.model);
  const models: string[] = [];
  for (const name of typed) {
    const match = matchModelName(name, known);
    if (match.kind === 'ambiguous')
      return sendError(res, 400, ambiguousModel(name, match.candidates).message);
    models.push(match.kind === 'found' ? match.model : name);
  }
  const domains = (await ctx.taskDomains?.()) ?? new Map<string, string>();
  const data = buildRadarData(summaries, models, domains);
  if (!svg) return sendJson(res, 200, data);
  sendSvg(res, renderRadarSvg(data));
}

export function sendSvg(res: ServerResponse, body: string): void {
  res.writeHead(200, {
    ...BASE_HEADERS,
    'Content-Type': 'image/svg+xml; charset=utf-8',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

/**
 * The operational axes per model and condition, the same rows as `report axes --format json` (no price
 * table, so no USD), and the dialogue tasks by policy dimension, as under `report matrix`.
 */
export async function getAxes(res: ServerResponse, ctx: ReadContext): Promise<void> {
  const summaries = await visibleSummaries(ctx);
  const rows = buildAxes(await newestResults(summaries, ctx));
  sendJson(res, 200, {
    note: METHOD_NOTE,
    rows,
    // The tables `report axes` prints, cell by cell: the browser renders these, not columns of its own.
    tables: axesTables(rows),
    dimensions: dimensionRows(buildMatrix(summaries).cells),
    dimensions_note: DIMENSIONS_FOOTNOTE,
  });
}

/** Cost against completion (report axes --pareto) as an SVG: tokens per trial, or wall seconds (`cost=wall_sec`). */
export async function getParetoSvg(
  res: ServerResponse,
  ctx: ReadContext,
  cost: string | null,
): Promise<void> {
  const unit = PARETO_COSTS.find((c) => c === (cost ?? 'tokens'));
  // No price table on the server: USD is for `report axes --pareto usd --price-table`.
  if (unit === undefined || unit === 'usd') return sendError(res, 400, 'cost: tokens or wall_sec');
  const rows = buildAxes(await newestResults(await visibleSummaries(ctx), ctx));
  sendSvg(res, renderParetoSvg(buildPareto(rows, unit)));
}

/** The newest result per (task, model, condition): the axes use only those, so only those files are read whole. */
async function newestResults(summaries: readonly ResultSummary[], ctx: ReadContext): Promise<ResultFile[]> {
  const conditions = new Map<string, RunCondition>(
    summaries.map((s) => [conditionKey(s.condition), s.condition]),
  );
  const newest = [...conditions.values()].flatMap((c) => [...newestPerCell(summaries, (s) => s, c).values()]);
  return (await Promise.all(newest.map((s) => ctx.index.read(s.file)))).filter(
    (r): r is ResultFile => r !== null,
  );
}
