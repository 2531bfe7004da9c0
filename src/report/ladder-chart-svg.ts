/**
 * The ladder chart as a standalone SVG (ladder-chart.ts has what it shows): pass rate up, memory
 * right, each point's interval as a bar, the target as a dashed line, the chosen rung ringed, the
 * Pareto front filled and joined, a point's area by its generation speed. Deterministic, every label
 * escaped, coloured like every other chart (palette.ts).
 */
import { escapeXml, fixed } from './format.js';
import type { LadderChart, LadderMemoryAxis } from './ladder-chart.js';
import { SERIES_DARK, SERIES_LIGHT } from './palette.js';

const W = 640;
const H = 420;
const M = { left: 56, right: 24, top: 40, bottom: 52 };
const GiB = 2 ** 30;

const AXIS: Record<LadderMemoryAxis, string> = {
  peak: 'memory: measured peak RSS (GiB)',
  estimate: 'memory: estimated, file + KV cache (GiB; not measured)',
  file: 'memory: model file size (GiB; not measured)',
};

const STYLE = [
  `.ab-ladder{--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--grid:#d0d7de;--front:${SERIES_LIGHT[0]};--off:${SERIES_LIGHT[1]};--target:${SERIES_LIGHT[2]}}`,
  `@media (prefers-color-scheme: dark){.ab-ladder{--bg:#0d1117;--fg:#e6edf3;--muted:#8b949e;--grid:#30363d;--front:${SERIES_DARK[0]};--off:${SERIES_DARK[1]};--target:${SERIES_DARK[2]}}}`,
  '.ab-ladder .bg{fill:var(--bg)}.ab-ladder .grid{stroke:var(--grid);stroke-width:1}',
  '.ab-ladder text{fill:var(--fg);font:11px "DejaVu Sans Mono",monospace}.ab-ladder .axis{fill:var(--muted)}',
  '.ab-ladder .bar{stroke:var(--muted);stroke-width:1.5}',
  '.ab-ladder .front{fill:var(--front);stroke:var(--front);fill-opacity:.8}.ab-ladder .dominated{fill:var(--bg);stroke:var(--off);stroke-width:2}',
  '.ab-ladder .frontline{fill:none;stroke:var(--front);stroke-width:1.5;stroke-dasharray:6 4}',
  '.ab-ladder .target{stroke:var(--target);stroke-width:1.5;stroke-dasharray:4 3}.ab-ladder .targetlabel{fill:var(--target)}',
  '.ab-ladder .chosen{fill:none;stroke:var(--fg);stroke-width:2}',
].join('');

export function renderLadderSvg(chart: LadderChart): string {
  const maxMem = Math.max(0, ...chart.points.map((p) => p.memoryBytes)) || GiB;
  const x = (bytes: number) => M.left + (bytes / (maxMem * 1.1)) * (W - M.left - M.right);
  const y = (v: number) => H - M.bottom - v * (H - M.top - M.bottom);
  const n = (v: number) => fixed(v, 1);
  const maxTps = Math.max(0, ...chart.points.map((p) => p.generationTps ?? 0));
  // Area proportional to speed; a point with no speed measured keeps the smallest size.
  const radius = (tps: number | null) => (tps === null || maxTps === 0 ? 5 : 4 + 6 * Math.sqrt(tps / maxTps));
  const interval =
    chart.interval === 'sequential'
      ? `one-sided bounds at ${pct(chart.confidence)}, as the rule used them`
      : `two-sided Clopper–Pearson at ${pct(chart.confidence)}`;
  const title = `Pass rate against memory, ${chart.suite}: ${chart.points.filter((p) => p.onFront).length} on the Pareto front${chart.verdict === null ? '' : `. ${chart.verdict}`}`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="ab-ladder" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="ab-ladder-title">`,
    `<title id="ab-ladder-title">${escapeXml(title)}</title>`,
    `<style>${STYLE}</style>`,
    `<rect class="bg" x="0" y="0" width="${W}" height="${H}"/>`,
    `<text x="${M.left}" y="16">${escapeXml(`ladder ${chart.runId}: ${chart.suite}`)}</text>`,
    `<text class="axis" x="${M.left}" y="30">${escapeXml(`bars: ${interval}${maxTps > 0 ? '; point area: generation tok/s' : ''}`)}</text>`,
  ];
  for (const v of [0, 0.25, 0.5, 0.75, 1])
    parts.push(
      `<line class="grid" x1="${M.left}" x2="${W - M.right}" y1="${n(y(v))}" y2="${n(y(v))}"/>`,
      `<text class="axis" x="${M.left - 6}" y="${n(y(v) + 4)}" text-anchor="end">${fixed(v, 2)}</text>`,
    );
  for (const tick of [0, 0.25, 0.5, 0.75, 1])
    parts.push(
      `<text class="axis" x="${n(x(maxMem * 1.1 * tick))}" y="${H - M.bottom + 16}" text-anchor="middle">${fixed((maxMem * 1.1 * tick) / GiB, 2)}</text>`,
    );
  parts.push(
    `<text class="axis" x="${n((M.left + W - M.right) / 2)}" y="${H - 12}" text-anchor="middle">${AXIS[chart.axis]} →</text>`,
    `<text class="axis" x="14" y="${n(H / 2)}" text-anchor="middle" transform="rotate(-90 14 ${n(H / 2)})">pass rate →</text>`,
    `<line class="target" x1="${M.left}" x2="${W - M.right}" y1="${n(y(chart.target))}" y2="${n(y(chart.target))}"/>`,
    `<text class="targetlabel" x="${W - M.right}" y="${n(y(chart.target) - 4)}" text-anchor="end">target ${chart.target}</text>`,
  );
  const front = chart.points.filter((p) => p.onFront).sort((a, b) => a.memoryBytes - b.memoryBytes);
  if (front.length > 1)
    parts.push(
      `<polyline class="frontline" points="${front.map((p) => `${n(x(p.memoryBytes))},${n(y(p.rate))}`).join(' ')}"/>`,
    );
  // Rungs that differ only in context often take the same memory: their labels are stacked, not overlaid.
  const placed: { x: number; y: number }[] = [];
  for (const p of chart.points) {
    const px = x(p.memoryBytes);
    const py = y(p.rate);
    let ly = py - 6;
    while (placed.some((q) => Math.abs(q.x - px) < 60 && Math.abs(q.y - ly) < 12)) ly -= 12;
    placed.push({ x: px, y: ly });
    const r = radius(p.generationTps);
    const speed = p.generationTps === null ? '' : `, generation ${p.generationTps} tok/s`;
    const tip = `${p.label}: ${p.status}, pass rate ${fixed(p.rate, 2)} (${fixed(p.low, 2)}–${fixed(p.high, 2)}, ${p.trials} trials), ${fixed(p.memoryBytes / GiB, 2)} GiB${speed}${p.onFront ? ', on the Pareto front' : ''}`;
    parts.push(
      `<line class="bar" x1="${n(px)}" x2="${n(px)}" y1="${n(y(p.low))}" y2="${n(y(p.high))}"/>`,
      `<circle class="${p.onFront ? 'front' : 'dominated'}" data-rung="${escapeXml(p.label)}" cx="${n(px)}" cy="${n(py)}" r="${n(r)}"><title>${escapeXml(tip)}</title></circle>`,
      ...(p.chosen
        ? [
            `<circle class="chosen" data-chosen="${escapeXml(p.label)}" cx="${n(px)}" cy="${n(py)}" r="${n(r + 5)}"/>`,
          ]
        : []),
      // Labels of the right half go to the point's left, so none runs off the chart.
      `<text x="${n(px > W / 2 ? px - r - 4 : px + r + 4)}" y="${n(ly)}" text-anchor="${px > W / 2 ? 'end' : 'start'}"${p.chosen ? ' font-weight="bold"' : ''}>${escapeXml(p.chosen ? `${p.short} (chosen)` : p.short)}</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}

const pct = (c: number): string => `${Math.round(c * 1000) / 10} %`;
