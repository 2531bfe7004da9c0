/** `report radar`: a self-contained HTML page with the radar SVG (task and ability charts), the axis legend and the value table. */
import type { RadarData } from './axes.js';
import { escapeHtml, fixed } from './format.js';
import { reportPage } from './html-page.js';
import { renderRadarSvg } from './radar-svg.js';

export function renderRadarHtml(data: RadarData, note = ''): string {
  const models = data.series.map((s) => s.label);
  const body = [
    `<h1>agent-bench radar</h1>`,
    `<p class="muted">${escapeHtml(models.join(' · '))} · ${data.axes.length} axes in two charts (the outcome of each task, or of each domain past 12 tasks, then the abilities), each 0..1 (outer ring = 1 = best). ` +
      `An open circle at the centre is n/a: no evidence for that axis (e.g. no tool call was made), never a 1. Newest result per (task, model).${note === '' ? '' : ` ${escapeHtml(note)}`}</p>`,
    renderRadarSvg(data),
    '<h2>Axes</h2>',
    '<table><thead><tr><th>#</th><th>axis</th><th>formula</th></tr></thead><tbody>',
    ...data.axes.map(
      (a, i) =>
        `<tr><td class="num">${i + 1}</td><td>${escapeHtml(a.label)}</td><td>${escapeHtml(a.formula)}</td></tr>`,
    ),
    '</tbody></table>',
    '<h2>Values</h2>',
    valueTable(data),
  ].join('\n');
  return reportPage(`agent-bench radar: ${models.join(', ')}`, body);
}

/** The numbers behind the picture: also the channel for readers who cannot tell the series apart. */
function valueTable(data: RadarData): string {
  const head = data.series
    .map((s) => `<th title="${escapeHtml(s.model)}">${escapeHtml(s.label)}</th>`)
    .join('');
  const rows = data.axes.map((axis, i) => {
    const cells = data.series.map((s) => {
      const v = s.values[i] ?? null;
      return `<td class="num">${v === null ? 'n/a' : fixed(v, 2)}</td>`;
    });
    return `<tr><td>${i + 1}. ${escapeHtml(axis.label)}</td>${cells.join('')}</tr>`;
  });
  return [
    '<table id="values"><thead><tr><th>axis</th>',
    head,
    '</tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
}
