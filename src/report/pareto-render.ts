/**
 * Cost against completion, as Markdown and JSON (`report axes --pareto`) and as a standalone SVG (the
 * dashboard's Axes view and `report card`): one chart, one definition (pareto.ts).
 */
import { shortModelNames } from '../results/short-model-name.js';
import type { Estimate } from '../stats/task-estimate.js';
import { escapeXml, fixed } from './format.js';
import type { ParetoChart, ParetoCost, ParetoPoint } from './pareto.js';

const UNIT: Record<ParetoCost, string> = {
  tokens: 'tokens per trial',
  usd: 'USD per trial',
  wall_sec: 'wall seconds per trial',
};

export const PARETO_NOTE =
  'Per condition, a model under test is dominated when another completes at least as much at no more cost, and better on one of the two; the front is the models no other dominates. Baselines are drawn for reference, never on the front. Completion carries its 95 % interval over tasks; the cost is the mean per trial over tasks.';

export function renderParetoJson(chart: ParetoChart): string {
  return `${JSON.stringify({ note: PARETO_NOTE, unit: UNIT[chart.cost], ...chart }, null, 2)}\n`;
}

export function renderParetoMd(chart: ParetoChart): string {
  const names = shortModelNames(chart.points.map((p) => p.model));
  // A model name may hold a `|`, which would end its table cell.
  const name = (m: string) => (names.get(m) ?? m).replace(/\|/g, '\\|');
  const digits = chart.cost === 'usd' ? 4 : chart.cost === 'tokens' ? 0 : 1;
  const lines = [
    `# Cost against completion (${UNIT[chart.cost]})`,
    '',
    '| model | condition | completion | cost | Pareto front |',
    '| --- | --- | --- | --- | --- |',
    ...chart.points.map(
      (p) =>
        `| ${name(p.model)}${p.baseline ? ' (baseline)' : ''} | ${p.condition} | ${estimate(p.completion, 2)} | ${estimate(p.cost, digits)} | ${frontText(p, name)} |`,
    ),
    '',
    ...chart.dominated.map(
      (d) => `- ${d.sentence.replace(d.model, name(d.model)).replace(d.by, name(d.by))}`,
    ),
    ...chart.left_out.map((l) => `- left out: ${name(l.model)} (${l.condition}): ${l.reason}`),
    ...chart.mixed_tasks.map(
      (c) => `- ${c}: the models ran different tasks, so their completions are over different suites`,
    ),
    ...(chart.dominated.length + chart.left_out.length + chart.mixed_tasks.length > 0 ? [''] : []),
    PARETO_NOTE,
  ];
  return `${lines.join('\n')}\n`;
}

function frontText(p: ParetoPoint, name: (m: string) => string): string {
  if (p.baseline) return 'baseline';
  return p.on_front ? '**on the front**' : `dominated by ${p.dominated_by.map(name).join(', ')}`;
}

function estimate(e: Estimate, digits: number): string {
  if (e.value === null) return 'n/a';
  const bounds =
    e.low === null || e.high === null ? '' : ` [${fixed(e.low, digits)}, ${fixed(e.high, digits)}]`;
  return `${fixed(e.value, digits)}${bounds} n=${e.n}`;
}

const W = 640;
const H = 400;
const M = { left: 56, right: 24, top: 28, bottom: 48 };

const STYLE = [
  '.ab-pareto{--bg:#ffffff;--fg:#1f2328;--muted:#57606a;--grid:#d0d7de;--front:#0969da;--off:#bc4c00}',
  '@media (prefers-color-scheme: dark){.ab-pareto{--bg:#0d1117;--fg:#e6edf3;--muted:#8b949e;--grid:#30363d;--front:#58a6ff;--off:#f0883e}}',
  '.ab-pareto .bg{fill:var(--bg)}.ab-pareto .grid{stroke:var(--grid);stroke-width:1}',
  '.ab-pareto text{fill:var(--fg);font:11px "DejaVu Sans Mono",monospace}.ab-pareto .axis{fill:var(--muted)}',
  '.ab-pareto .bar{stroke:var(--muted);stroke-width:1.5}',
  '.ab-pareto .front{fill:var(--front);stroke:var(--front)}.ab-pareto .dominated{fill:var(--bg);stroke:var(--off);stroke-width:2}',
  '.ab-pareto .baseline{fill:var(--bg);stroke:var(--muted);stroke-width:1.5;stroke-dasharray:2 2}',
  '.ab-pareto .frontline{fill:none;stroke:var(--front);stroke-width:1.5;stroke-dasharray:6 4}',
].join('');

/**
 * The points of one chart (completion up, cost right): front points filled, dominated ones hollow, a
 * baseline a dashed square; each with its completion interval as a vertical bar and its short name.
 * `highlight`: a model whose labels are bold (the card's own model). Deterministic, every label escaped.
 */
export function renderParetoSvg(chart: ParetoChart, highlight: string | null = null): string {
  const names = shortModelNames(chart.points.map((p) => p.model));
  const maxCost = Math.max(0, ...chart.points.map((p) => p.cost.value ?? 0)) || 1;
  const x = (c: number) => M.left + (c / (maxCost * 1.08)) * (W - M.left - M.right);
  const y = (v: number) => H - M.bottom - v * (H - M.top - M.bottom);
  const n = (v: number) => fixed(v, 1);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="ab-pareto" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-labelledby="ab-pareto-title">`,
    `<title id="ab-pareto-title">Completion against ${UNIT[chart.cost]}: ${chart.front.length} on the Pareto front, ${chart.dominated.length} dominated</title>`,
    `<style>${STYLE}</style>`,
    `<rect class="bg" x="0" y="0" width="${W}" height="${H}"/>`,
  ];
  for (const v of [0, 0.25, 0.5, 0.75, 1])
    parts.push(
      `<line class="grid" x1="${M.left}" x2="${W - M.right}" y1="${n(y(v))}" y2="${n(y(v))}"/>`,
      `<text class="axis" x="${M.left - 6}" y="${n(y(v) + 4)}" text-anchor="end">${fixed(v, 2)}</text>`,
    );
  parts.push(
    `<text class="axis" x="${n((M.left + W - M.right) / 2)}" y="${H - 10}" text-anchor="middle">${UNIT[chart.cost]} →</text>`,
    `<text class="axis" x="14" y="${n(H / 2)}" text-anchor="middle" transform="rotate(-90 14 ${n(H / 2)})">completion →</text>`,
  );
  for (const tick of [0, 0.5, 1])
    parts.push(
      `<text class="axis" x="${n(x(maxCost * tick))}" y="${H - M.bottom + 16}" text-anchor="middle">${fixed(maxCost * tick, chart.cost === 'usd' ? 4 : 0)}</text>`,
    );
  // The front as a line through its points, per condition, cheapest first.
  const conditions = [...new Set(chart.points.map((p) => p.condition))];
  for (const c of conditions) {
    const front = chart.points
      .filter((p) => p.on_front && p.condition === c)
      .sort((a, b) => (a.cost.value ?? 0) - (b.cost.value ?? 0));
    if (front.length > 1)
      parts.push(
        `<polyline class="frontline" points="${front.map((p) => `${n(x(p.cost.value ?? 0))},${n(y(p.completion.value ?? 0))}`).join(' ')}"/>`,
      );
  }
  for (const p of chart.points) {
    const px = x(p.cost.value ?? 0);
    const py = y(p.completion.value ?? 0);
    const label = `${names.get(p.model) ?? p.model}${conditions.length > 1 ? ` [${p.condition}]` : ''}`;
    if (p.completion.low !== null && p.completion.high !== null)
      parts.push(
        `<line class="bar" x1="${n(px)}" x2="${n(px)}" y1="${n(y(p.completion.low))}" y2="${n(y(p.completion.high))}"/>`,
      );
    const cls = p.baseline ? 'baseline' : p.on_front ? 'front' : 'dominated';
    const tip = `<title>${escapeXml(`${p.model} [${p.condition}]: completion ${fixed(p.completion.value ?? 0, 2)}, ${fixed(p.cost.value ?? 0, 2)} ${UNIT[chart.cost]}${p.dominated_by.length > 0 ? `, dominated by ${p.dominated_by.join(', ')}` : ''}`)}</title>`;
    parts.push(
      p.baseline
        ? `<rect class="${cls}" data-model="${escapeXml(p.model)}" x="${n(px - 5)}" y="${n(py - 5)}" width="10" height="10">${tip}</rect>`
        : `<circle class="${cls}" data-model="${escapeXml(p.model)}" cx="${n(px)}" cy="${n(py)}" r="6">${tip}</circle>`,
      // Labels of the right half go to the point's left, so none runs off the chart.
      `<text x="${n(px > W / 2 ? px - 9 : px + 9)}" y="${n(py - 6)}" text-anchor="${px > W / 2 ? 'end' : 'start'}"${p.model === highlight ? ' font-weight="bold"' : ''}>${escapeXml(label)}</text>`,
    );
  }
  parts.push('</svg>');
  return parts.join('\n');
}
