/**
 * The ladder's picture: points from a ladder summary (sequential and pass^k, configured and not),
 * the axis saying what memory it is, the Pareto front of memory × pass rate, the chosen rung, the
 * target; the SVG well-formed and escaped; `report card` and the dashboard showing it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCardCommand } from '../../src/cli/commands/report.js';
import type { Dashboard } from '../../src/dashboard/server.js';
import { buildLadderChart, readLadderCharts } from '../../src/report/ladder-chart.js';
import { writeLadderChart } from '../../src/report/ladder-chart-file.js';
import { renderLadderSvg } from '../../src/report/ladder-chart-svg.js';
import { clopperPearson } from '../../src/stats/clopper-pearson.js';
import { raw, startTestDashboard } from '../dashboard/harness.js';
import { opsResult, P } from './ops-results.js';
import { xmlProblems } from './xml-check.js';

const GiB = 2 ** 30;
type Rung = Parameters<typeof buildLadderChart>[0]['rungs'][number];

function rung(model: string, o: Partial<Rung> & { passed?: number; run?: number }): Rung {
  const { passed = 0, run = 0, ...rest } = o;
  return {
    model,
    model_id: `/m/${model.replace(/@.*/, '')}.gguf`,
    results_model: `/m/${model.replace(/@.*/, '')}.gguf`,
    status: 'failed',
    quantization: model.replace(/@.*/, '').split('-').at(-1) ?? null,
    size_bytes: 1 * GiB,
    tasks: run === 0 ? {} : { a: { trials_run: run, trials_passed: passed } },
    ...rest,
  };
}

/** A sequential ladder over configurations: the first rung fails, the second passes, the third is not run. */
function sequentialSummary() {
  return {
    schema: 'agent-bench/ladder@1' as const,
    run_id: 'RUN1',
    suite: 'skill <pdf> & forms',
    updated_at: '2026-01-01T00:00:00Z',
    target: 0.8,
    confidence: 0.9,
    passing: ['b-8b-Q6_K@ctx8192-kv-q8_0'],
    verdict: 'b-8b-Q6_K at ctx 8192, KV q8_0 passes',
    rungs: [
      rung('b-8b-Q4_K_M@ctx4096-kv-q8_0', {
        ctx: 4096,
        cache_type: 'q8_0',
        memory_estimate_bytes: 5 * GiB,
        server_peak_rss_bytes: 5.5 * GiB,
        speed: { generation_tps: 40 },
        sequential: { passed: 1, measured: 4, lower: 0.03, upper: 0.62 },
      }),
      rung('b-8b-Q6_K@ctx8192-kv-q8_0', {
        status: 'passed',
        ctx: 8192,
        cache_type: 'q8_0',
        memory_estimate_bytes: 7 * GiB,
        server_peak_rss_bytes: 7.5 * GiB,
        speed: { generation_tps: 10 },
        sequential: { passed: 11, measured: 11, lower: 0.81, upper: 1 },
      }),
      rung('b-8b-Q8_0@ctx8192-kv-f16', { status: 'not_run', memory_estimate_bytes: 9 * GiB }),
    ],
  };
}

describe('the ladder chart', () => {
  it('has one point per measured rung, on the measured memory, with the rule’s bounds', () => {
    const chart = buildLadderChart(sequentialSummary());
    expect(chart.axis).toBe('peak');
    expect(chart.interval).toBe('sequential');
    expect(chart.target).toBe(0.8);
    expect(
      chart.points.map((p) => [p.short, p.memoryBytes / GiB, p.rate, p.low, p.high, p.chosen, p.onFront]),
    ).toEqual([
      ['Q4_K_M ctx4096 kv-q8_0', 5.5, 0.25, 0.03, 0.62, false, true],
      ['Q6_K ctx8192 kv-q8_0', 7.5, 1, 0.81, 1, true, true],
    ]);
    expect(chart.leftOut).toEqual([{ label: 'b-8b-Q8_0@ctx8192-kv-f16', reason: 'not run' }]);
  });

  it('a pass^k ladder: two-sided Clopper–Pearson at 90 %, file sizes when nothing was measured, the dominated off the front', () => {
    const chart = buildLadderChart({
      schema: 'agent-bench/ladder@1',
      run_id: 'OLD',
      suite: 's',
      updated_at: '2025-01-01T00:00:00Z',
      passing: ['m-Q8_0'],
      verdict: null,
      rungs: [
        rung('m-Q4_K_M', { size_bytes: 2 * GiB, passed: 3, run: 5 }),
        // More memory for a lower pass rate: dominated.
        rung('m-Q5_K_M', { size_bytes: 3 * GiB, passed: 2, run: 5 }),
        rung('m-Q8_0', { status: 'passed', size_bytes: 4 * GiB, passed: 5, run: 5 }),
        rung('m-F16', { status: 'error', size_bytes: 8 * GiB }),
      ],
    });
    expect(chart.axis).toBe('file');
    expect(chart.interval).toBe('two-sided');
    expect(chart.target).toBe(1);
    const bounds = clopperPearson(3, 5, 0.95);
    expect(chart.points[0]).toMatchObject({ rate: 0.6, low: bounds.lower, high: bounds.upper });
    expect(chart.points.map((p) => [p.label, p.onFront])).toEqual([
      ['m-Q4_K_M', true],
      ['m-Q5_K_M', false],
      ['m-Q8_0', true],
    ]);
    expect(chart.leftOut).toEqual([{ label: 'm-F16', reason: 'nothing measured' }]);
  });

  it('draws the target, the chosen rung, the front and the axis it used, escaped and well-formed', () => {
    const svg = renderLadderSvg(buildLadderChart(sequentialSummary()));
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg).toContain('memory: measured peak RSS (GiB)');
    expect(svg).toContain('>target 0.8</text>');
    expect(svg).toMatch(/<circle class="chosen" data-chosen="b-8b-Q6_K@ctx8192-kv-q8_0"/);
    expect(svg).toContain('Q6_K ctx8192 kv-q8_0 (chosen)');
    expect(svg).toContain('<polyline class="frontline"');
    expect(svg).toContain('skill &lt;pdf&gt; &amp; forms');
    expect(svg).toContain('point area: generation tok/s');
    // The faster rung is drawn larger.
    const radius = (label: string) =>
      Number(new RegExp(`data-rung="${label}" cx="[\\d.]+" cy="[\\d.]+" r="([\\d.]+)"`).exec(svg)?.[1]);
    expect(radius('b-8b-Q4_K_M@ctx4096-kv-q8_0')).toBeGreaterThan(radius('b-8b-Q6_K@ctx8192-kv-q8_0'));
  });
});

describe('where the chart is shown', () => {
  let dir: string;
  let dash: Dashboard;
  const summary = sequentialSummary();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ladder-chart-'));
    await writeFile(join(dir, 'ladder-RUN1.json'), JSON.stringify(summary));
    await writeFile(join(dir, 'ladder-broken.json'), '{');
    const model = summary.rungs[1]?.results_model ?? '';
    await writeFile(join(dir, 'r.json'), JSON.stringify(opsResult({ task: 'a', model, k: 1, trials: [P] })));
    dash = await startTestDashboard({ resultsDir: dir });
  });
  afterAll(async () => {
    await dash.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the ladder writes it beside its summary', async () => {
    const written = await writeLadderChart(join(dir, 'ladder-RUN1.json'));
    expect(written).toEqual({ path: join(dir, 'ladder-RUN1.svg') });
    expect(await writeLadderChart(join(dir, 'ladder-broken.json'))).toEqual({
      problem: `${join(dir, 'ladder-broken.json')}: not valid JSON`,
    });
    expect((await readLadderCharts(dir)).map((c) => c.runId)).toEqual(['RUN1']);
  });

  it('report card includes the newest ladder its model was a rung of', async () => {
    let html = '';
    const stdout = new PassThrough();
    stdout.on('data', (c: Buffer) => {
      html += c.toString();
    });
    await reportCardCommand({
      resultsDir: dir,
      model: 'b-8b-Q6_K',
      format: 'html',
      stdout,
      stderr: new PassThrough(),
    });
    expect(html).toContain('<h2>Ladder</h2>');
    expect(html).toContain('class="ab-ladder"');
    expect(html).toContain('b-8b-Q6_K at ctx 8192, KV q8_0 passes');
  });

  it('the dashboard lists the ladders and serves each chart', async () => {
    const list = JSON.parse((await raw(dash.port, 'GET', '/api/ladders')).body);
    expect(list.ladders).toEqual([
      {
        run_id: 'RUN1',
        suite: summary.suite,
        verdict: summary.verdict,
        updated_at: summary.updated_at,
        svg: '/api/ladder.svg?run=RUN1',
      },
    ]);
    const svg = await raw(dash.port, 'GET', '/api/ladder.svg?run=RUN1');
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toBe(renderLadderSvg(buildLadderChart(summary)));
    expect((await raw(dash.port, 'GET', '/api/ladder.svg?run=NOPE')).status).toBe(404);
  });
});
