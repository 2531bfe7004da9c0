/**
 * The ladders of the results folder (`ladder-<run>.json`): GET /api/ladders lists them, newest
 * first, and GET /api/ladder.svg?run=ID draws one as `agent-bench ladder` wrote it beside its summary.
 */
import type { ServerResponse } from 'node:http';
import { readLadderCharts } from '../report/ladder-chart.js';
import { renderLadderSvg } from '../report/ladder-chart-svg.js';
import { type ReadContext, sendSvg } from './api-read.js';
import { sendError, sendJson } from './http-util.js';

export async function getLadders(res: ServerResponse, ctx: ReadContext): Promise<void> {
  const charts = await readLadderCharts(ctx.resultsDir);
  sendJson(res, 200, {
    ladders: charts
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
      .map((c) => ({
        run_id: c.runId,
        suite: c.suite,
        verdict: c.verdict,
        updated_at: c.updatedAt,
        svg: `/api/ladder.svg?run=${encodeURIComponent(c.runId)}`,
      })),
  });
}

export async function getLadderSvg(res: ServerResponse, ctx: ReadContext, runId: string): Promise<void> {
  const chart = (await readLadderCharts(ctx.resultsDir)).find((c) => c.runId === runId);
  if (chart === undefined) return sendError(res, 404, `no ladder ${runId} in the results folder`);
  sendSvg(res, renderLadderSvg(chart));
}
