/**
 * The radar's labels, checked as boxes: none outside the view box, none overlapping another, however
 * many axes and however long the task ids and model names. The boxes are the layout's own (monospace
 * text, so width = characters × advance); the browser test in report-command.test.ts measures them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStatic } from '../../src/dashboard/files.js';
import type { RadarData } from '../../src/report/axes.js';
import { paletteCss, SERIES_DARK, SERIES_LIGHT } from '../../src/report/palette.js';
import {
  type Box,
  layoutRadar,
  overlaps,
  type RadarLayout,
  wrapLabel,
} from '../../src/report/radar-layout.js';
import { legendTexts, renderRadarSvg } from '../../src/report/radar-svg.js';

const ABILITIES = [
  'Process discipline',
  'Reliability',
  'Format compliance',
  'No tool hallucination',
  'Tamper-free',
  'Finishes on its own',
  'Turn efficiency',
  'Speed',
  'Token economy',
];

function radar(tasks: string[], models: string[]): RadarData {
  const axes = [
    ...tasks.map((t) => ({ id: `task:${t}`, label: t, formula: 'f' })),
    ...ABILITIES.map((label, i) => ({ id: `ability${i}`, label, formula: 'f' })),
  ];
  return {
    axes,
    series: models.map((model, m) => ({
      model,
      label: model,
      values: axes.map((_, i) => ((i + m) % 4 === 0 ? null : ((i * 7 + m) % 10) / 10)),
    })),
  };
}

function problems(layout: RadarLayout): string[] {
  const inside = (b: Box): boolean =>
    b.x >= 0 && b.y >= 0 && b.x + b.w <= layout.width && b.y + b.h <= layout.height;
  const out = layout.labels.filter((l) => !inside(l.box)).map((l) => `outside: ${l.text}`);
  const clash = layout.labels.flatMap((a, i) =>
    layout.labels
      .slice(i + 1)
      .filter((b) => overlaps(a.box, b.box, 0))
      .map((b) => `overlap: ${a.text} / ${b.text}`),
  );
  return [...out, ...clash];
}

const LONG_TASKS = Array.from({ length: 16 }, (_, i) =>
  i % 3 === 0 ? `skill_run_v1_imitate_dashboard_variant_${i}` : i % 3 === 1 ? `t${i}` : `debug_python_v${i}`,
);
const LONG_MODELS = [
  'hf.co/unsloth/Qwen3-30B-A3B-Instruct-2507-GGUF:Q4_K_XL-with-a-very-long-suffix',
  'llama3.2:3b',
  'gemma3:4b-it-q4_K_M',
  'x'.repeat(80),
];

describe('radar layout', () => {
  const cases: [string, RadarData][] = [
    ['16 long task ids, 4 long model names', radar(LONG_TASKS, LONG_MODELS)],
    ['one task', radar(['a'], ['m'])],
    ['two tasks', radar(['debug_python_v1', 'tdd_order_v1'], ['m', 'n'])],
    ['no task axes', { axes: radar([], ['m']).axes, series: radar([], ['m']).series }],
    [
      '40 tasks',
      radar(
        Array.from({ length: 40 }, (_, i) => `task_number_${i}_of_the_suite_v1`),
        ['m'],
      ),
    ],
    ['an unbreakable 70-character id', radar(['a'.repeat(70), 'b', 'c'], ['m'])],
  ];
  for (const [name, data] of cases)
    it(`keeps every label inside the view box and apart from the others: ${name}`, () => {
      const layout = layoutRadar(data, legendTexts(data));
      expect(layout.labels.filter((l) => l.kind === 'axis')).toHaveLength(data.axes.length);
      expect(problems(layout)).toEqual([]);
      expect(renderRadarSvg(data)).toContain(`viewBox="0 0 ${layout.width} ${layout.height}"`);
    });

  it('the check itself finds a label outside and two on top of each other', () => {
    const layout = layoutRadar(radar(['a', 'b', 'c'], ['m']), ['m']);
    const [first, second] = layout.labels;
    if (first === undefined || second === undefined) throw new Error('labels expected');
    const broken = {
      ...layout,
      labels: [
        { ...first, box: { ...first.box, x: -5 } },
        { ...second, box: first.box },
      ],
    };
    expect(problems(broken)).toEqual([`outside: ${first.text}`, `overlap: ${first.text} / ${second.text}`]);
  });

  it('splits the task axes and the ability axes into two charts, numbered as in the value table', () => {
    const data = radar(['a', 'b', 'c'], ['m']);
    const layout = layoutRadar(data, legendTexts(data));
    expect(layout.charts.map((c) => [c.title, c.axes])).toEqual([
      ['Tasks: outcome reach rate per task', [0, 1, 2]],
      ['Abilities', [3, 4, 5, 6, 7, 8, 9, 10, 11]],
    ]);
    expect(layout.labels.filter((l) => l.kind === 'axis').map((l) => l.text.split('.')[0])).toEqual(
      data.axes.map((_, i) => String(i + 1)),
    );
  });

  it('wraps long ids at _ - . / and spaces, and cuts only a word longer than the line', () => {
    expect(wrapLabel('3. skill_run_v1_imitate_dashboard', 16)).toEqual([
      '3. skill_run_v1_',
      'imitate_',
      'dashboard',
    ]);
    expect(wrapLabel('No tool hallucination', 24)).toEqual(['No tool hallucination']);
    expect(wrapLabel('x'.repeat(30), 24)).toEqual(['x'.repeat(24), 'x'.repeat(6)]);
    for (const line of wrapLabel('1. hf.co/unsloth/Qwen3-30B-A3B-Instruct-2507-GGUF', 24))
      expect(line.length).toBeLessThanOrEqual(24);
  });
});

describe('one palette and drawable glyphs', () => {
  const STATIC = join(import.meta.dirname, '..', '..', 'src', 'dashboard', 'static');
  const REPORT = join(import.meta.dirname, '..', '..', 'src', 'report');

  it('the radar and the dashboard take the series colours from the same module', () => {
    const svg = renderRadarSvg(radar(['a'], ['m']));
    for (const [i, c] of SERIES_LIGHT.entries()) expect(svg).toContain(`--s${i}:${c}`);
    for (const [i, c] of SERIES_DARK.entries()) expect(svg).toContain(`--s${i}:${c}`);
    // The dashboard defines no series colour of its own: it links the palette the server makes from palette.ts.
    const css = readFileSync(join(STATIC, 'style.css'), 'utf8');
    expect(css).not.toMatch(/--c\d\s*:/);
    expect(readFileSync(join(STATIC, 'index.html'), 'utf8')).toContain('href="/static/palette.css"');
    expect(paletteCss(':root', '--c')).toContain(`:root{--c0:${SERIES_LIGHT[0]};`);
  });

  it('the dashboard serves that palette as /static/palette.css', async () => {
    const files = await loadStatic(STATIC, 'token');
    const css = files.assets.get('palette.css');
    expect(css?.type).toMatch(/^text\/css/);
    expect(css?.body.toString()).toBe(paletteCss(':root', '--c'));
    for (const c of [...SERIES_LIGHT, ...SERIES_DARK]) expect(css?.body.toString()).toContain(c);
  });

  it('uses no emoji-presentation character (Debian Chromium has no colour emoji font to draw it)', () => {
    const emoji = /\p{Emoji_Presentation}|\u{FE0F}/u;
    const files = [
      ...readdirSync(REPORT).map((f) => join(REPORT, f)),
      ...readdirSync(STATIC).map((f) => join(STATIC, f)),
    ];
    const found = files.filter((f) => emoji.test(readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
    expect(emoji.test('✅')).toBe(true);
    expect(emoji.test('✓ ✗ ⚠')).toBe(false); // text glyphs DejaVu has
  });
});
