/** The ladder writes its chart next to its summary: `ladder-<run>.json` → `ladder-<run>.svg`. */
import { writeFileAtomic } from '../util/atomic-write.js';
import { readLadderChart } from './ladder-chart.js';
import { renderLadderSvg } from './ladder-chart-svg.js';

/** The SVG's path, or the one-line reason there is none. */
export async function writeLadderChart(summaryPath: string): Promise<{ path: string } | { problem: string }> {
  const chart = await readLadderChart(summaryPath);
  if ('problem' in chart) return chart;
  const path = summaryPath.replace(/\.json$/, '.svg');
  await writeFileAtomic(path, `${renderLadderSvg(chart)}\n`);
  return { path };
}
