/**
 * The radar as a standalone SVG string: two charts (task outcomes, abilities) and a legend, placed by
 * radar-layout.ts so no label is clipped or overlaps another. Deterministic (fixed rounding, no
 * randomness, no dates), every label XML-escaped, colours from the shared palette plus a dash pattern
 * and a marker shape per series so no reader depends on colour alone, light/dark from prefers-color-scheme.
 */
import type { RadarData } from './axes.js';
import { clip, escapeXml, fixed } from './format.js';
import { paletteCss } from './palette.js';
import { FONT_PX, layoutRadar, type PlacedLabel, RINGS } from './radar-layout.js';

export const MAX_SERIES = 4;

const DASHES = ['', '9 5', '2 4', '12 4 2 4'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond'] as const;
/** Descending sizes, so tied vertices show as concentric marks instead of hiding each other. */
const MARKER_SIZE = [7, 5.5, 4.5, 3.5];

const STYLE = [
  '.ab-radar{--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--grid:#d0d7de}',
  '@media (prefers-color-scheme: dark){.ab-radar{--bg:#0d1117;--fg:#e6edf3;--muted:#8b949e;--grid:#30363d}}',
  paletteCss('.ab-radar', '--s').replace(/\n/g, ''),
  '.ab-radar .bg{fill:var(--bg)}.ab-radar .grid{fill:none;stroke:var(--grid);stroke-width:1}',
  // Monospace: the layout computes every label box from the character count.
  `.ab-radar text{fill:var(--fg);font:${FONT_PX}px "DejaVu Sans Mono",monospace}`,
  '.ab-radar .title{font-weight:bold}',
  '.ab-radar .ring{fill:var(--muted);font-size:10px}',
  '.ab-radar .area{stroke-width:2.5;stroke-linejoin:round;fill-opacity:0.08}',
  ...[0, 1, 2, 3].map((i) => `.ab-radar .s${i}{stroke:var(--s${i});fill:var(--s${i})}`),
  // After the series rules: a missing value is an open circle whatever its series colour.
  '.ab-radar .missing{fill:var(--bg);stroke-width:1.5}',
].join('');

/** The legend line of each series: its name and which axes have no evidence. */
export function legendTexts(data: RadarData): string[] {
  return data.series.slice(0, MAX_SERIES).map((s) => `${clip(s.label, 60)}${naNote(s.values)}`);
}

export function renderRadarSvg(data: RadarData): string {
  const series = data.series.slice(0, MAX_SERIES);
  const layout = layoutRadar(data, legendTexts(data));
  const { width: W, height: H } = layout;
  const pt = ([x, y]: [number, number]): string => `${fixed(x, 2)},${fixed(y, 2)}`;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="ab-radar" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="ab-radar-title">`,
    `<title id="ab-radar-title">Radar of ${escapeXml(series.map((s) => s.model).join(', '))} over ${data.axes.length} axes</title>`,
    `<style>${STYLE}</style>`,
    `<rect class="bg" x="0" y="0" width="${W}" height="${H}"/>`,
  ];
  for (const chart of layout.charts) {
    const at = (k: number, r: number): [number, number] => [
      chart.cx + r * Math.cos(chart.angle(k)),
      chart.cy + r * Math.sin(chart.angle(k)),
    ];
    for (const ring of RINGS)
      parts.push(
        `<polygon class="grid" points="${chart.axes.map((_, k) => pt(at(k, chart.r * ring))).join(' ')}"/>`,
      );
    chart.axes.forEach((_, k) => {
      const [x, y] = at(k, chart.r);
      parts.push(
        `<line class="grid" x1="${fixed(chart.cx, 2)}" y1="${fixed(chart.cy, 2)}" x2="${fixed(x, 2)}" y2="${fixed(y, 2)}"/>`,
      );
    });
    series.forEach((s, si) => {
      const value = (i: number): number | null => s.values[i] ?? null;
      const dash = DASHES[si] === '' ? '' : ` stroke-dasharray="${DASHES[si]}"`;
      const points = chart.axes.map((i, k) => pt(at(k, chart.r * (value(i) ?? 0)))).join(' ');
      parts.push(`<polygon class="area s${si}" points="${points}"${dash}/>`);
      chart.axes.forEach((i, k) => {
        parts.push(marker(si, at(k, chart.r * (value(i) ?? 0)), value(i) === null));
      });
    });
  }
  for (const label of layout.labels) parts.push(text(label));
  series.forEach((_, si) => {
    const ly = layout.legendY[si] ?? 0;
    const dash = DASHES[si] === '' ? '' : ` stroke-dasharray="${DASHES[si]}"`;
    parts.push(`<line class="area s${si}" x1="20" y1="${ly}" x2="60" y2="${ly}"${dash}/>`);
    parts.push(marker(si, [40, ly], false));
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** A label in its box: lines centred on the box, first baseline one font size below its top. */
function text(l: PlacedLabel): string {
  const cls = l.kind === 'axis' || l.kind === 'legend' ? '' : ` class="${l.kind}"`;
  const anchor = l.kind === 'axis' ? 'middle' : 'start';
  const x = anchor === 'middle' ? l.box.x + l.box.w / 2 : l.box.x;
  const size = l.kind === 'ring' ? 10 : FONT_PX;
  const lines = l.lines.map(
    (line, i) =>
      `<tspan x="${fixed(x, 2)}" y="${fixed(l.box.y + size - 1 + i * (l.box.h / l.lines.length), 2)}">${escapeXml(line)}</tspan>`,
  );
  const tip = l.kind === 'axis' ? `<title>${escapeXml(l.text)}</title>` : '';
  return `<text${cls} text-anchor="${anchor}">${tip}${lines.join('')}</text>`;
}

/** Which axes of a series have no evidence, by number: " · n/a: 3, 5" (" · no data" when none has any). */
function naNote(values: readonly (number | null)[]): string {
  const missing = values.flatMap((v, i) => (v === null ? [i + 1] : []));
  if (missing.length === 0) return '';
  return missing.length === values.length ? ' · no data' : ` · n/a: ${missing.join(', ')}`;
}

/** A filled marker per series (shape differs by series); an open circle at the centre for a missing value. */
function marker(si: number, [x, y]: [number, number], missing: boolean): string {
  const cls = `s${si}${missing ? ' missing' : ''}`;
  if (missing)
    return `<circle class="${cls}" cx="${fixed(x, 2)}" cy="${fixed(y, 2)}" r="3"><title>n/a</title></circle>`;
  const r = MARKER_SIZE[si] ?? 3.5;
  const shape = MARKERS[si] ?? 'circle';
  const p = (dx: number, dy: number): string => `${fixed(x + dx, 2)},${fixed(y + dy, 2)}`;
  switch (shape) {
    case 'circle':
      return `<circle class="${cls}" cx="${fixed(x, 2)}" cy="${fixed(y, 2)}" r="${r}"/>`;
    case 'square':
      return `<rect class="${cls}" x="${fixed(x - r, 2)}" y="${fixed(y - r, 2)}" width="${fixed(2 * r, 2)}" height="${fixed(2 * r, 2)}"/>`;
    case 'triangle':
      return `<polygon class="${cls}" points="${p(0, -r * 1.2)} ${p(r * 1.1, r * 0.8)} ${p(-r * 1.1, r * 0.8)}"/>`;
    case 'diamond':
      return `<polygon class="${cls}" points="${p(0, -r * 1.3)} ${p(r * 1.3, 0)} ${p(0, r * 1.3)} ${p(-r * 1.3, 0)}"/>`;
  }
}
