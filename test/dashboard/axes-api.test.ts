/**
 * GET /api/axes: the operational axes the server computes are the rows `report axes --format json`
 * prints for the same folder, non-clean conditions included, and the policy-dimension table is the
 * one `report matrix --format json` has; a hidden run is left out, as in every other view.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportAxesCommand, reportMatrixCommand } from '../../src/cli/commands/report.js';
import type { Dashboard } from '../../src/dashboard/server.js';
import { AXES_BASELINE, AXES_MODEL, writeAxesFixture } from './axes-fixture.js';
import { pageHeaders, raw, startTestDashboard } from './harness.js';

let dash: Dashboard;
let fixture: ReturnType<typeof writeAxesFixture>;

beforeAll(async () => {
  fixture = writeAxesFixture();
  dash = await startTestDashboard({ resultsDir: fixture.dir });
});
afterAll(async () => {
  await dash.close();
  fixture.remove();
});

async function cliText(
  command: typeof reportAxesCommand | typeof reportMatrixCommand,
  format: 'json' | 'md',
): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => {
    text += String(d);
  });
  await command({ resultsDir: fixture.dir, format, stdout: out, stderr: new PassThrough() });
  return text;
}

const cli = async (command: typeof reportAxesCommand | typeof reportMatrixCommand): Promise<unknown> =>
  JSON.parse(await cliText(command, 'json'));

const getAxes = async () => JSON.parse((await raw(dash.port, 'GET', '/api/axes')).body);

describe('GET /api/axes', () => {
  it('serves the rows of report axes, every condition, with n and intervals', async () => {
    const axes = await getAxes();
    const report = (await cli(reportAxesCommand)) as { note: string; rows: unknown[] };
    expect(axes.rows).toEqual(report.rows);
    expect(axes.note).toBe(report.note);
    const key = (r: { model: string; condition: string }) => `${r.model} ${r.condition}`;
    expect(axes.rows.map(key)).toEqual([
      `${AXES_MODEL} clean`,
      `${AXES_MODEL} noisy@0.2`,
      `${AXES_MODEL} adversarial`,
      `${AXES_BASELINE} clean`,
      `${AXES_BASELINE} adversarial`,
    ]);
    const noisy = axes.rows[1];
    expect(noisy.recovery).toMatchObject({ faulted_trials: 3, faults: 3 });
    expect(noisy.completion).toMatchObject({ value: 0.25, n: 2 });
    expect(axes.rows[2].safety.safe).toMatchObject({ value: 0.75, n: 2 });
    expect(axes.rows[4]).toMatchObject({ baseline: true, safety: { safe: { value: 0, n: 2 } } });
  });

  it('serves the tables report axes prints, from the same spec: every title, header and cell', async () => {
    const axes = await getAxes();
    const md = await cliText(reportAxesCommand, 'md');
    const tables = axes.tables as {
      id: string;
      title: string;
      header: string[];
      rows: { cells: unknown[] }[];
    }[];
    expect(tables.map((t) => t.id)).toEqual([
      'axes-main',
      'axes-cost',
      'axes-recovery',
      'axes-safety',
      'axes-classes',
    ]);
    for (const t of tables) {
      expect(md).toContain(` ${t.title}\n`);
      expect(md).toContain(`| ${t.header.join(' | ')} |`);
      for (const row of t.rows) expect(row.cells).toHaveLength(t.header.length);
    }
    // The main table's figures are the rows' own: the browser renders no figure of its own making.
    const main = tables[0];
    expect(main?.rows[1]?.cells[3]).toEqual({
      kind: 'figure',
      figure: 'completion',
      estimate: axes.rows[1].completion,
      digits: 2,
      note: '',
    });
  });

  it('draws cost against completion as report axes --pareto has it: front filled, baselines apart', async () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (d) => {
      text += String(d);
    });
    await reportAxesCommand({
      resultsDir: fixture.dir,
      format: 'json',
      pareto: true,
      stdout: out,
      stderr: new PassThrough(),
    });
    const chart = JSON.parse(text) as { front: { model: string }[]; points: unknown[] };
    const res = await raw(dash.port, 'GET', '/api/pareto.svg');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body.match(/class="front"/g)).toHaveLength(chart.front.length);
    expect(chart.front.map((f) => f.model)).toContain(AXES_MODEL);
    expect(res.body).toContain(`class="baseline" data-model="${AXES_BASELINE}"`);
    expect(res.body.match(/<(circle|rect) class="(front|dominated|baseline)"/g)).toHaveLength(
      chart.points.length,
    );
    expect((await raw(dash.port, 'GET', '/api/pareto.svg?cost=usd')).status).toBe(400);
  });

  it('serves the policy-dimension table of report matrix', async () => {
    const axes = await getAxes();
    const matrix = (await cli(reportMatrixCommand)) as { dimensions: unknown[] };
    expect(axes.dimensions).toEqual(matrix.dimensions);
    expect(axes.dimensions.map((d: { dimension: string; scenarios: number }) => d.dimension)).toEqual([
      'escalation',
      'identity_verification',
      'kb_resolution',
    ]);
    expect(axes.dimensions[0].pass_rate.value).toBeCloseTo(0.75);
  });

  it('leaves a hidden run out', async () => {
    const index = JSON.parse((await raw(dash.port, 'GET', '/api/index')).body);
    const baselineRuns = index.results.filter((r: { model: string }) => r.model === AXES_BASELINE);
    for (const r of baselineRuns) {
      const res = await raw(
        dash.port,
        'POST',
        '/api/hide',
        pageHeaders(dash),
        JSON.stringify({ file: r.file, hidden: true }),
      );
      expect(res.status).toBe(200);
    }
    const axes = await getAxes();
    expect(axes.rows.map((r: { model: string }) => r.model)).not.toContain(AXES_BASELINE);
    expect(axes.rows).toHaveLength(3);
  });
});
