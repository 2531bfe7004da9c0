/**
 * Where everything of the radar goes, as plain geometry (pure, so a unit test can check it): two charts,
 * task outcomes and abilities, one above the other, and the legend. Labels are set in a monospace font
 * so their boxes can be computed here rather than measured in a browser; long labels wrap. The radius
 * grows until no two label boxes overlap, and the view box is the union of every box, so nothing is
 * clipped whatever the number or length of the axis names.
 */
import type { RadarData } from './axes.js';

/** Labels are 12px DejaVu Sans Mono (Debian's monospace): 0.602em per character, rounded up. */
export const FONT_PX = 12;
const CHAR_W = FONT_PX * 0.62;
const LINE_H = 15;
const WRAP = 24;
const GAP = 12;
const PAD = 4;
const MARGIN = 16;
const MIN_R = 150;
const MAX_R = 1600;
const TITLE_H = 26;
const LEGEND_ROW = 22;
const LEGEND_TEXT_X = 56;

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlacedLabel {
  lines: string[];
  /** Full text, for the tooltip. */
  text: string;
  box: Box;
  kind: 'axis' | 'ring' | 'title' | 'legend';
}

interface ChartLayout {
  title: string;
  cx: number;
  cy: number;
  r: number;
  /** Indices into RadarData.axes, in drawing order (clockwise from the top). */
  axes: number[];
  angle(k: number): number;
}

export interface RadarLayout {
  width: number;
  height: number;
  charts: ChartLayout[];
  labels: PlacedLabel[];
  /** Baseline y of each legend row, in series order. */
  legendY: number[];
}

export const RINGS = [0.25, 0.5, 0.75, 1];

/** Greedy word wrap at spaces and after `_`, `-`, `.`, `/`; a word longer than the width is cut. */
export function wrapLabel(text: string, width = WRAP): string[] {
  const tokens = text.match(/[^\s_\-./]*[_\-./]|[^\s_\-./]+|\s+/g) ?? [text];
  const lines: string[] = [];
  let line = '';
  for (const token of tokens) {
    if (/^\s+$/.test(token)) {
      if (line !== '') line += ' ';
      continue;
    }
    for (let rest = token; rest !== ''; ) {
      const room = width - line.length;
      if (rest.length <= room) {
        line += rest;
        rest = '';
      } else if (line.trim() !== '') {
        lines.push(line.trimEnd());
        line = '';
      } else {
        lines.push(rest.slice(0, width));
        rest = rest.slice(width);
      }
    }
  }
  if (line.trim() !== '') lines.push(line.trimEnd());
  return lines.length === 0 ? [''] : lines;
}

const textWidth = (line: string): number => [...line].length * CHAR_W;

export function layoutRadar(data: RadarData, legend: readonly string[]): RadarLayout {
  const groups = [
    { title: 'Tasks: outcome reach rate per task', axes: indicesWhere(data, (id) => id.startsWith('task:')) },
    {
      title: 'Tasks by domain: mean outcome reach rate of its tasks (hover a domain for its tasks)',
      axes: indicesWhere(data, (id) => id.startsWith('domain:')),
    },
    { title: 'Abilities', axes: indicesWhere(data, (id) => !/^(task|domain):/.test(id)) },
  ].filter((g) => g.axes.length > 0);
  const charts = groups.map((g) => chartAtOrigin(g.title, g.axes, data));
  const legendBoxes = legend.map((text) => ({ text, w: LEGEND_TEXT_X + textWidth(text) }));
  const width = Math.ceil(
    Math.max(
      ...charts.map((c) => Math.max(c.bounds.w, textWidth(c.title))),
      ...legendBoxes.map((l) => l.w),
      200,
    ) +
      2 * MARGIN,
  );

  const labels: PlacedLabel[] = [];
  const placed: ChartLayout[] = [];
  let top = MARGIN;
  for (const c of charts) {
    // Centred horizontally; the chart's own bounds start at its top.
    const dx = (width - c.bounds.w) / 2 - c.bounds.x;
    const dy = top + TITLE_H - c.bounds.y;
    labels.push({
      lines: [c.title],
      text: c.title,
      kind: 'title',
      box: { x: MARGIN, y: top, w: textWidth(c.title), h: LINE_H },
    });
    for (const l of c.labels) labels.push({ ...l, box: { ...l.box, x: l.box.x + dx, y: l.box.y + dy } });
    placed.push({ title: c.title, cx: dx, cy: dy, r: c.r, axes: c.axes, angle: c.angle });
    top += TITLE_H + c.bounds.h + MARGIN;
  }
  const legendY = legendBoxes.map((l, i) => {
    const y = top + 8 + i * LEGEND_ROW;
    labels.push({
      lines: [l.text],
      text: l.text,
      kind: 'legend',
      box: { x: MARGIN + LEGEND_TEXT_X, y: y - LINE_H / 2, w: textWidth(l.text), h: LINE_H },
    });
    return y;
  });
  const height = Math.ceil(top + legendBoxes.length * LEGEND_ROW + MARGIN);
  return { width, height, charts: placed, labels, legendY };
}

function indicesWhere(data: RadarData, test: (id: string) => boolean): number[] {
  return data.axes.flatMap((a, i) => (test(a.id) ? [i] : []));
}

interface ChartAtOrigin {
  title: string;
  axes: number[];
  r: number;
  angle(k: number): number;
  labels: PlacedLabel[];
  bounds: Box;
}

/** One chart centred at (0, 0): the smallest radius at which no two of its labels overlap. */
function chartAtOrigin(title: string, axes: number[], data: RadarData): ChartAtOrigin {
  const n = axes.length;
  const angle = (k: number): number => -Math.PI / 2 + (2 * Math.PI * k) / n;
  const texts = axes.map((i) => `${i + 1}. ${data.axes[i]?.label ?? ''}`);
  // A domain's tooltip lists its tasks.
  const tips = axes.map((i, k) => {
    const tasks = data.axes[i]?.tasks;
    return tasks === undefined ? (texts[k] ?? '') : `${texts[k] ?? ''}: ${tasks.join(', ')}`;
  });
  let r = MIN_R;
  let labels = labelsAt(r, texts, tips, angle);
  while (r < MAX_R && anyOverlap(labels)) {
    r += 10;
    labels = labelsAt(r, texts, tips, angle);
  }
  const boxes = [{ x: -r, y: -r, w: 2 * r, h: 2 * r }, ...labels.map((l) => l.box)];
  return { title, axes, r, angle, labels, bounds: union(boxes) };
}

function labelsAt(
  r: number,
  texts: readonly string[],
  tips: readonly string[],
  angle: (k: number) => number,
): PlacedLabel[] {
  const axisLabels = texts.map((text, k): PlacedLabel => {
    const lines = wrapLabel(text);
    const w = Math.max(...lines.map(textWidth));
    const h = lines.length * LINE_H;
    const a = angle(k);
    const [ax, ay] = [(r + GAP) * Math.cos(a), (r + GAP) * Math.sin(a)];
    // Shifted outwards by half its size along the axis direction, so the box never reaches into the chart.
    const x = ax - w / 2 + (Math.cos(a) * w) / 2;
    const y = ay - h / 2 + (Math.sin(a) * h) / 2;
    return { lines, text: tips[k] ?? text, kind: 'axis', box: { x, y, w, h } };
  });
  const rings = RINGS.map(
    (ring): PlacedLabel => ({
      lines: [ring.toFixed(2)],
      text: ring.toFixed(2),
      kind: 'ring',
      // Just inside each ring, right of the top spoke: clear of the top axis label outside the chart.
      box: { x: 10, y: -r * ring + 2, w: textWidth('0.00') * (10 / FONT_PX), h: 12 },
    }),
  );
  return [...axisLabels, ...rings];
}

export function overlaps(a: Box, b: Box, pad = PAD): boolean {
  return a.x < b.x + b.w + pad && b.x < a.x + a.w + pad && a.y < b.y + b.h + pad && b.y < a.y + a.h + pad;
}

function anyOverlap(labels: readonly PlacedLabel[]): boolean {
  return labels.some((a, i) => labels.some((b, j) => j > i && overlaps(a.box, b.box)));
}

function union(boxes: readonly Box[]): Box {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.w));
  const bottom = Math.max(...boxes.map((b) => b.y + b.h));
  return { x, y, w: right - x, h: bottom - y };
}
