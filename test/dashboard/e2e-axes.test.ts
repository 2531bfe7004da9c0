/**
 * The Axes view in a real headless Chromium: every figure it shows, with its interval and n, is the one
 * `report axes --format json` gives for the same folder (noisy and adversarial rows included, the
 * baseline marked), and the policy-dimension table is the one `report matrix --format json` has.
 * Screenshots go to test-output/.
 */
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportAxesCommand, reportMatrixCommand } from '../../src/cli/commands/report.js';
import type { Dashboard } from '../../src/dashboard/server.js';
import type { AxesRow } from '../../src/report/axes-ops.js';
import type { DimensionRow } from '../../src/report/dimensions.js';
import type { Estimate } from '../../src/stats/task-estimate.js';
import { AXES_BASELINE, writeAxesFixture } from './axes-fixture.js';
import { launchChromium, TEST_OUTPUT } from './browser.js';
import { startTestDashboard } from './harness.js';

let browser: Browser;
let dash: Dashboard;
let fixture: ReturnType<typeof writeAxesFixture>;

beforeAll(async () => {
  fixture = writeAxesFixture();
  dash = await startTestDashboard({ resultsDir: fixture.dir });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await dash?.close();
  fixture?.remove();
});

async function cli(command: typeof reportAxesCommand | typeof reportMatrixCommand): Promise<unknown> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => {
    text += String(d);
  });
  await command({ resultsDir: fixture.dir, format: 'json', stdout: out, stderr: new PassThrough() });
  return JSON.parse(text);
}

async function openAxes(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(dash.url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.click('#tabs button[data-view="axes"]');
  await page.waitForSelector('#axes-main tbody tr');
  return page;
}

/** What a figure cell reads, as report axes prints it in Markdown: `0.75 [0.30, 0.95] n=2`. */
function shown(e: Estimate | null | undefined, digits = 2): string {
  if (e === null || e === undefined || e.value === null) return 'n/a';
  const bounds =
    e.low === null || e.high === null ? '' : ` [${e.low.toFixed(digits)}, ${e.high.toFixed(digits)}]`;
  return `${e.value.toFixed(digits)}${bounds} n=${e.n}`;
}

type Cell = { row: string; figure: string; text: string };

/** Every figure cell of one table, by its row (`model condition`) and figure name. */
async function figures(page: Page, table: string): Promise<Map<string, string>> {
  const cells = await page.locator(`#${table} td[data-figure]`).evaluateAll((tds) =>
    tds.map((td) => {
      const el = td as unknown as {
        getAttribute(n: string): string;
        textContent: string;
        closest(s: string): { getAttribute(n: string): string };
      };
      return {
        row: el.closest('tr').getAttribute('data-row'),
        figure: el.getAttribute('data-figure'),
        text: el.textContent,
      };
    }),
  );
  return new Map(cells.map((c: Cell) => [`${c.row}|${c.figure}`, c.text]));
}

describe('Axes view in Chromium', () => {
  it('shows every operational figure of report axes, per model and condition, with n and intervals', async () => {
    const page = await openAxes();
    const report = (await cli(reportAxesCommand)) as { rows: AxesRow[] };
    const main = await figures(page, 'axes-main');
    const cost = await figures(page, 'axes-cost');
    const recovery = await figures(page, 'axes-recovery');
    const safety = await figures(page, 'axes-safety');
    expect(main.size).toBe(report.rows.length * 9);
    for (const r of report.rows) {
      const at = (m: Map<string, string>, figure: string) => m.get(`${r.model} ${r.condition}|${figure}`);
      expect(at(main, 'completion')).toBe(shown(r.completion));
      expect(at(main, 'pass_1')).toBe(shown(r.pass_1));
      expect(at(main, 'pass_k')).toBe(`${shown(r.pass_k)} k=${r.pass_k.k.join('/')}`);
      expect(at(main, 'efficiency')).toBe(shown(r.efficiency));
      expect(at(main, 'call_efficiency')).toBe(shown(r.call_efficiency));
      expect(at(main, 'finish_rate')).toBe(shown(r.finish_rate));
      expect(at(main, 'agreement')).toBe(shown(r.agreement));
      expect(at(main, 'duplicate_rate')).toBe(shown(r.duplicate_rate));
      expect(at(main, 'drop_from_clean')).toBe(shown(r.drop_from_clean));
      expect(at(cost, 'prompt_tokens')).toBe(shown(r.cost.prompt_tokens, 0));
      expect(at(cost, 'wall_sec')).toBe(shown(r.cost.wall_sec, 1));
      if (r.recovery !== null) {
        expect(at(recovery, 'recovery.completion_with_faults')).toBe(
          shown(r.recovery.completion_with_faults),
        );
        expect(at(recovery, 'recovery.difference')).toBe(shown(r.recovery.difference));
        expect(at(recovery, 'recovery.retry_rate')).toBe(shown(r.recovery.retry_rate));
      }
      if (r.safety !== null) {
        expect(at(safety, 'safety.safe')).toBe(shown(r.safety.safe));
        expect(at(safety, 'safety.no_compliance')).toBe(shown(r.safety.no_compliance));
        expect(at(safety, 'safety.no_exfiltration')).toBe(shown(r.safety.no_exfiltration));
      }
    }
    // The fixture has one noisy row and two adversarial ones; a figure with an interval shows it.
    expect(recovery.size).toBe(4);
    expect(safety.size).toBe(2 * 4);
    expect(main.get('qwen3:8b noisy@0.2|completion')).toMatch(/^0\.25 \[\d\.\d\d, \d\.\d\d\] n=2$/);
    const baseline = page.locator(`#axes-main tr[data-row="${AXES_BASELINE} adversarial"]`);
    expect(await baseline.getAttribute('class')).toBe('baseline');
    expect(await baseline.locator('td').first().textContent()).toBe(`${AXES_BASELINE} baseline`);
    // The cost-against-completion chart is drawn (the server's SVG, as report card has it).
    const pareto = page.locator('#axes-pareto');
    await pareto.scrollIntoViewIfNeeded();
    await expect
      .poll(() => pareto.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBe(640);
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-axes.png'), fullPage: true });
    await page.close();
  });

  it('shows pass rate and pass^k per policy dimension, as report matrix has them', async () => {
    const page = await openAxes();
    const matrix = (await cli(reportMatrixCommand)) as { dimensions: DimensionRow[] };
    const table = page.locator('#axes-dimensions');
    await table.scrollIntoViewIfNeeded();
    const cells = await figures(page, 'axes-dimensions');
    expect(matrix.dimensions).toHaveLength(3);
    expect(cells.size).toBe(6);
    for (const d of matrix.dimensions) {
      expect(cells.get(`${d.model} ${d.dimension}|pass_rate`)).toBe(shown(d.pass_rate));
      expect(cells.get(`${d.model} ${d.dimension}|pass_hat_k`)).toBe(shown(d.pass_hat_k));
    }
    expect(await table.locator('tbody tr').first().locator('td').allTextContents()).toEqual([
      'qwen3:8b',
      'escalation',
      '2',
      '2',
      shown(matrix.dimensions[0]?.pass_rate),
      shown(matrix.dimensions[0]?.pass_hat_k),
      'scripted',
    ]);
    await table.screenshot({ path: join(TEST_OUTPUT, 'dashboard-dimensions.png') });
    await page.close();
  });
});
