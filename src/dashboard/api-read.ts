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
import { MAX_SERIES, renderRadarSvg } from '../report/radar-svg.js';
import { type ResultSummary, withoutCredentials } from '../report/summary.js';
import { conditionKey, type RunCondition } from '../results/condition.js';
import type { ResultFile } from '../results/result-file.js';
import type { TrialRecord } from '../results/trial.js';
import { listArtifacts } from './artifacts.js';
import type { DashboardState } from './dashboard-state.js';
import { BASE_HEADERS, sendError, sendJson } from './http-util.js';
import type { ResultIndex } from './result-index.js';

export interface ReadContext {
  resultsDir: string;
  index: ResultIndex;
  state: DashboardState;
}

/** Every summary, marked hidden or not; `newest` is the newest visible run per cell (what the matrix shows). */
export async function getIndex(res: ServerResponse, ctx: ReadContext): Promise<void> {
  const summaries = await ctx.index.summaries();
  const hidden = await ctx.state.hidden();
  const visible = summaries.filter((s) => !hidden.has(s.file));
  const newest = new Set([...newestPerCell(visible, (s) => s).values()].map((s) => s.file));
  sendJson(res, 200, {
    results: summaries.map((s) => ({ ...s, newest: newest.has(s.file), hidden: hidden.has(s.file) })),
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
  const artifacts = await listArtifacts(ctx.resultsDir, result.task_id, result.model, trial);
  sendJson(res, 200, { file, task_id: result.task_id, model: result.model, trial, artifacts });
}

/** What each model built for one task (newest result per model), for side-by-side previews. */
export async function getCompare(res: ServerResponse, ctx: ReadContext, task: string): Promise<void> {
  const summaries = (await visibleSummaries(ctx)).filter((s) => s.task_id === task);
  const cells = [...newestPerCell(summaries, (s) => s).values()].sort((a, b) =>
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
          artifacts: await listArtifacts(ctx.resultsDir, s.task_id, s.model, t),
        })),
      );
      return { model: s.model, file: s.file, pass_all_k: s.pass_all_k, score: s.score, trials };
    }),
  );
  sendJson(res, 200, { task, models });
}

export function radarModels(param: string | null): string[] | null {
  const models = (param ?? '').split(',').filter((m) => m !== '');
  return models.length === 0 || models.length > MAX_SERIES ? null : models;
}

export async function getRadar(
  res: ServerResponse,
  ctx: ReadContext,
  models: string[],
  svg: boolean,
): Promise<void> {
  const data = buildRadarData(await visibleSummaries(ctx), models);
  if (!svg) return sendJson(res, 200, data);
  const body = renderRadarSvg(data);
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
  // The axes use only the newest result per (task, model, condition): only those files are read whole.
  const conditions = new Map<string, RunCondition>(
    summaries.map((s) => [conditionKey(s.condition), s.condition]),
  );
  const newest = [...conditions.values()].flatMap((c) => [...newestPerCell(summaries, (s) => s, c).values()]);
  const results = (await Promise.all(newest.map((s) => ctx.index.read(s.file)))).filter(
    (r): r is ResultFile => r !== null,
  );
  const rows = buildAxes(results);
  sendJson(res, 200, {
    note: METHOD_NOTE,
    rows,
    // The tables `report axes` prints, cell by cell: the browser renders these, not columns of its own.
    tables: axesTables(rows),
    dimensions: dimensionRows(buildMatrix(summaries).cells),
    dimensions_note: DIMENSIONS_FOOTNOTE,
  });
}
