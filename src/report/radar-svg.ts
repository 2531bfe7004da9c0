/**
 * The radar chart as a standalone SVG string: deterministic (fixed rounding, no randomness, no dates),
 * every label XML-escaped, colours from the Okabe–Ito palette plus a dash pattern and a marker shape
 * per series so no reader depends on colour alone, and light/dark from prefers-color-scheme.
 */
import type { RadarData } from './axes.js';
import { clip, escapeXml, fixed } from './format.js';

export const MAX_SERIES = 4;

const W = 760;
const CX = 380;
const CY = 300;
const R = 220;
const RINGS = [0.25, 0.5, 0.75, 1];
const DASHES = ['', '9 5', '2 4', '12 4 2 4'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond'] as const;
/** Descending sizes, so tied vertices show as concentric marks instead of hiding each other. */
const MARKER_SIZE = [7, 5.5, 4.5, 3.5];

const STYLE = [
  '.ab-radar{--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--grid:#d0d7de;',
  '--s0:#0072B2;--s1:#D55E00;--s2:#009E73;--s3:#CC79A7}',
  '@media (prefers-color-scheme: dark){.ab-radar{--bg:#0d1117;--fg:#e6edf3;--muted:#8b949e;--grid:#30363d;',
  '--s0:#56B4E9;--s1:#E69F00;--s2:#009E73;--s3:#CC79A7}}',
  '.ab-radar .bg{fill:var(--bg)}.ab-radar .grid{fill:none;stroke:var(--grid);stroke-width:1}',
  '.ab-radar text{fill:var(--fg);font:12px system-ui,-apple-system,"Segoe UI",sans-serif}',
  '.ab-radar .ring{fill:var(--muted);font-size:10px}',
  '.ab-radar .area{stroke-width:2.5;stroke-linejoin:round;fill-opacity:0.08}',
  ...[0, 1, 2, 3].map((i) => `.ab-radar .s${i}{stroke:var(--s${i});fill:var(--s${i})}`),
  // After the series rules: a missing value is an open circle whatever its series colour.
  '.ab-radar .missing{fill:var(--bg);stroke-width:1.5}',
].join('');

export function renderRadarSvg(data: RadarData): string {
  const n = data.axes.length;
  const series = data.series.slice(0, MAX_SERIES);
  const height = 2 * CY + 30 + series.length * 22;
  const at = (i: number, r: number): [number, number] => {
    const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [CX + r * Math.cos(angle), CY + r * Math.sin(angle)];
  };
  const pt = ([x, y]: [number, number]): string => `${fixed(x, 2)},${fixed(y, 2)}`;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="ab-radar" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-labelledby="ab-radar-title">`,
    `<title id="ab-radar-title">Radar of ${escapeXml(series.map((s) => s.model).join(', '))} over ${n} axes</title>`,
    `<style>${STYLE}</style>`,
    `<rect class="bg" x="0" y="0" width="${W}" height="${height}"/>`,
  ];
  for (const ring of RINGS) {
    const points = data.axes.map((_, i) => pt(at(i, R * ring))).join(' ');
    parts.push(`<polygon class="grid" points="${points}"/>`);
    parts.push(
      `<text class="ring" x="${fixed(CX + 4, 2)}" y="${fixed(CY - R * ring - 3, 2)}">${fixed(ring, 2)}</text>`,
    );
  }
  data.axes.forEach((axis, i) => {
    const [x, y] = at(i, R);
    parts.push(`<line class="grid" x1="${CX}" y1="${CY}" x2="${fixed(x, 2)}" y2="${fixed(y, 2)}"/>`);
    parts.push(
      axisLabel(`${i + 1}. ${axis.label}`, at(i, R + 14), Math.cos(-Math.PI / 2 + (2 * Math.PI * i) / n)),
    );
  });
  series.forEach((s, si) => {
    const points = s.values.map((v, i) => pt(at(i, R * (v ?? 0)))).join(' ');
    const dash = DASHES[si] === '' ? '' : ` stroke-dasharray="${DASHES[si]}"`;
    parts.push(`<polygon class="area s${si}" points="${points}"${dash}/>`);
    s.values.forEach((v, i) => {
      parts.push(marker(si, at(i, R * (v ?? 0)), v === null));
    });
    const ly = 2 * CY + 20 + si * 22;
    parts.push(`<line class="area s${si}" x1="40" y1="${ly}" x2="84" y2="${ly}"${dash}/>`);
    parts.push(marker(si, [62, ly], false));
    parts.push(`<text x="96" y="${ly + 4}">${escapeXml(clip(s.model, 60))}${naNote(s.values)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** Which axes of a series have no evidence, by number: " · n/a: 3, 5" (" · no data" when none has any). */
function naNote(values: readonly (number | null)[]): string {
  const missing = values.flatMap((v, i) => (v === null ? [i + 1] : []));
  if (missing.length === 0) return '';
  return missing.length === values.length ? ' · no data' : ` · n/a: ${missing.join(', ')}`;
}

function axisLabel(text: string, [x, y]: [number, number], cos: number): string {
  const anchor = Math.abs(cos) < 0.15 ? 'middle' : cos > 0 ? 'start' : 'end';
  const dy = y < CY - R / 2 ? -2 : y > CY + R / 2 ? 10 : 4;
  const shown = escapeXml(clip(text, 28));
  return `<text x="${fixed(x, 2)}" y="${fixed(y + dy, 2)}" text-anchor="${anchor}"><title>${escapeXml(text)}</title>${shown}</text>`;
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
