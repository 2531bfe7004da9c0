import { describe, expect, it } from 'vitest';
import { buildRadarData } from '../../src/report/axes.js';
import { SERIES_LIGHT } from '../../src/report/palette.js';
import { renderRadarHtml } from '../../src/report/radar.js';
import { layoutRadar } from '../../src/report/radar-layout.js';
import { legendTexts, renderRadarSvg } from '../../src/report/radar-svg.js';
import { summarizeResult } from '../../src/report/summary.js';
import { EVIL, LLAMA, QWEN } from '../fixtures/results-set.js';
import { buildResult, NO_TOOLS, result } from '../helpers/result-builder.js';
import { fixtureSummaries } from './load-fixtures.js';
import { xmlProblems } from './xml-check.js';

const axisValue = (data: ReturnType<typeof buildRadarData>, model: string, axisId: string): number | null => {
  const i = data.axes.findIndex((a) => a.id === axisId);
  const series = data.series.find((s) => s.model === model);
  if (i === -1 || series === undefined) throw new Error(`no ${axisId} for ${model}`);
  return series.values[i] ?? null;
};

describe('radar axes', () => {
  it('has at least 10 axes, each with a formula, one outcome axis per task run', async () => {
    const { summaries } = await fixtureSummaries();
    const data = buildRadarData(summaries, [QWEN, LLAMA]);
    expect(data.axes.length).toBeGreaterThanOrEqual(10);
    expect(data.axes.map((a) => a.id).slice(0, 3)).toEqual([
      'task:debug_python_v1',
      'task:landing_page_v1',
      'task:tdd_order_v1',
    ]);
    for (const axis of data.axes) expect(axis.formula.length).toBeGreaterThan(20);
    for (const s of data.series) {
      for (const v of s.values.filter((x) => x !== null)) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
    }
  });

  it('computes the values from the newest results (checked by hand against the fixtures)', async () => {
    const { summaries } = await fixtureSummaries();
    const data = buildRadarData(summaries, [QWEN, LLAMA]);
    // qwen: 3/3 on debug, 2/3 on tdd (red_observed missed once), 1/1 on landing.
    expect(axisValue(data, QWEN, 'task:debug_python_v1')).toBe(1);
    expect(axisValue(data, QWEN, 'process')).toBe(0.944); // mean(1, (1 + 2/3)/2, 1)
    expect(axisValue(data, QWEN, 'reliability')).toBe(0.667); // pass^3 estimates 1, 0, 1
    expect(axisValue(data, QWEN, 'efficiency')).toBe(0.979); // mean(5 / (16/3), 1, 1)
    // llama: one tampered trial of 5, one hallucinated tool of 8 calls, 2 format faults of 13 replies + 8 calls.
    expect(axisValue(data, LLAMA, 'task:debug_python_v1')).toBe(0.333);
    expect(axisValue(data, LLAMA, 'task:landing_page_v1')).toBe(0.5);
    expect(axisValue(data, LLAMA, 'tamper_free')).toBe(0.8);
    expect(axisValue(data, LLAMA, 'no_hallucination')).toBe(0.875);
    expect(axisValue(data, LLAMA, 'format')).toBe(0.905);
    expect(axisValue(data, LLAMA, 'finishes')).toBe(0.8);
    expect(axisValue(data, LLAMA, 'reliability')).toBe(0);
    // Never passed: nothing to compare turns or time with.
    expect(axisValue(data, LLAMA, 'efficiency')).toBeNull();
    expect(axisValue(data, LLAMA, 'speed')).toBeNull();
  });

  it('shows an axis with no evidence as n/a, never 1: a model that made no tool call', () => {
    const mute = [
      summarizeResult('a.json', result({ task: 'a', model: 'mute', trials: [NO_TOOLS, NO_TOOLS] })),
    ];
    const data = buildRadarData(mute, ['mute']);
    // It tampered with nothing and called no unknown tool, because it called nothing at all.
    for (const axis of ['format', 'no_hallucination', 'tamper_free', 'finishes', 'efficiency', 'speed'])
      expect(axisValue(data, 'mute', axis), axis).toBeNull();
    // What it did not do is evidence where doing was asked for: no flag reached, no pass.
    expect(axisValue(data, 'mute', 'process')).toBe(0);
    expect(axisValue(data, 'mute', 'reliability')).toBe(0);
    expect(axisValue(data, 'mute', 'task:a')).toBe(0);
    const svg = renderRadarSvg(data);
    expect(xmlProblems(svg)).toEqual([]);
    const na = data.axes.flatMap((_a, i) => (data.series[0]?.values[i] === null ? [i + 1] : []));
    expect(svg).toContain(`mute · n/a: ${na.join(', ')}</tspan>`);
    expect(svg).toContain('<title>n/a</title>');
    const html = renderRadarHtml(data);
    expect(html).toMatch(/<td>\d+\. Tamper-free<\/td><td class="num">n\/a<\/td>/);
    expect(html).not.toMatch(/<td>\d+\. Tamper-free<\/td><td class="num">1\.00/);
  });

  it('counts malformed replies as evidence of format even without a tool call', () => {
    const garbled = buildResult({
      task: 'a',
      model: 'garbled',
      runId: 'r1',
      startedAt: '2025-01-01T00:00:00.000Z',
      k: 1,
      trials: [
        { flags: { fixed: ['outcome', false] }, turns: [{ malformed: 'bad JSON' }, { text: 'done' }] },
      ],
    });
    const data = buildRadarData([summarizeResult('a.json', garbled.result)], ['garbled']);
    expect(axisValue(data, 'garbled', 'format')).toBe(0.5);
    expect(axisValue(data, 'garbled', 'tamper_free')).toBeNull();
  });

  it('gives a model with no results no values rather than zeros', async () => {
    const { summaries } = await fixtureSummaries();
    const data = buildRadarData(summaries, [QWEN, 'nobody']);
    expect(data.series[1]?.values.every((v) => v === null)).toBe(true);
  });
});

describe('radar SVG', () => {
  it('is checked by a checker that does catch broken XML', () => {
    expect(xmlProblems('<svg><g></svg>')).not.toEqual([]);
    expect(xmlProblems('<text>a & b</text>')).not.toEqual([]);
    expect(xmlProblems('<text x=1>a</text>')).not.toEqual([]);
    expect(xmlProblems('<svg><text x="1">a &amp; b</text></svg>')).toEqual([]);
  });

  it('is well-formed XML, deterministic, and escapes model names', async () => {
    const { summaries } = await fixtureSummaries();
    const data = buildRadarData(summaries, [QWEN, LLAMA, EVIL, 'nobody']);
    const svg = renderRadarSvg(data);
    expect(xmlProblems(svg)).toEqual([]);
    expect(renderRadarSvg(buildRadarData(summaries, [QWEN, LLAMA, EVIL, 'nobody']))).toBe(svg);
    expect(svg).not.toContain('<img');
    expect(svg).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
  });

  it('places values where the geometry says: first axis straight up, value 1 on the outer ring', async () => {
    const { summaries } = await fixtureSummaries();
    const data = buildRadarData(summaries, [QWEN]);
    const svg = renderRadarSvg(data);
    const [tasks, abilities] = layoutRadar(data, legendTexts(data)).charts;
    if (tasks === undefined || abilities === undefined) throw new Error('two charts expected');
    // Two charts: the task outcomes, then the abilities, each with its own polygon per series.
    expect(tasks.axes).toEqual([0, 1, 2]);
    expect(abilities.axes[0]).toBe(3);
    const areas = [...svg.matchAll(/<polygon class="area s0" points="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(areas).toHaveLength(2);
    // qwen's first task axis (debug outcome) is 1: its vertex is straight above the centre, on the outer ring.
    expect(areas[0]?.split(' ')[0]).toBe(`${tasks.cx.toFixed(2)},${(tasks.cy - tasks.r).toFixed(2)}`);
    expect(tasks.cy + tasks.r).toBeLessThan(abilities.cy - abilities.r);
    expect(svg).toMatch(/prefers-color-scheme: dark/);
    expect(svg).toContain(`--s0:${SERIES_LIGHT[0]}`); // Okabe–Ito blue, from the shared palette
    expect(SERIES_LIGHT[0]).toBe('#0072b2');
  });

  it('draws each series with its own dash pattern and marker shape, and missing values as open circles', async () => {
    const { summaries } = await fixtureSummaries();
    const svg = renderRadarSvg(buildRadarData(summaries, [QWEN, LLAMA, EVIL, 'nobody']));
    expect(svg).toContain('class="area s1" points');
    expect(svg).toMatch(/class="area s1"[^>]*stroke-dasharray="9 5"/);
    expect(svg).toMatch(/<rect class="s1"/); // square markers for series 2
    expect(svg).toMatch(/<polygon class="s2" points/); // triangles for series 3
    expect(svg).toMatch(/<circle class="s3 missing"/);
  });

  it('puts the SVG, the formulas and the values in one self-contained page', async () => {
    const { summaries } = await fixtureSummaries();
    const data = buildRadarData(summaries, [QWEN, LLAMA]);
    const html = renderRadarHtml(data);
    expect(html).toContain('<svg');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(html).toContain('1 − calls to tools that do not exist ÷ all tool calls');
    expect(html).toMatch(/<td>\d+\. Tamper-free<\/td><td class="num">1\.00<\/td><td class="num">0\.80<\/td>/);
  });
});
