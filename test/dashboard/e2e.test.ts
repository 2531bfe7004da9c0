/**
 * The dashboard in a real headless Chromium, on the fixture results: the matrix renders (model-written
 * names stay text), a transcript opens, an HTML artifact runs inside its sandboxed iframe without access
 * to the dashboard, and a run started from the panel streams its lines live. Screenshots go to test-output/.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/dashboard/server.js';
import { modelSlug } from '../../src/results/layout.js';
import { EVIL, LLAMA, QWEN } from '../fixtures/results-set.js';
import { type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { launchChromium, TEST_OUTPUT } from './browser.js';
import { copyFixtures, startTestDashboard } from './harness.js';

let browser: Browser;
let dash: Dashboard;
let models: ScriptedServer;
let fixtures: ReturnType<typeof copyFixtures>;
const LANDING = 'landing_page_v1__qwen3-8b-801dca__20250102T120000000Z-0004.json';
const OLDER_QWEN = 'debug_python_v1__qwen3-8b-801dca__20250101T100000000Z-0001.json';

beforeAll(async () => {
  fixtures = copyFixtures();
  models = await startScriptedServer({ scripts: {}, extraModels: ['slow', 'fast'] });
  dash = await startTestDashboard({ resultsDir: fixtures.dir, baseUrl: models.baseUrl });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await dash?.close();
  await models?.close();
  fixtures?.remove();
});

async function open(hash = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${dash.url}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

/** The page's globals, typed here because the project compiles without the DOM library. */
type Win = {
  __pwned?: unknown;
  origin: string;
  getComputedStyle(el: unknown): { color: string };
  document: { querySelector(selector: string): { complete: boolean } | null };
};
type Img = { naturalWidth: number };

const pwned = (page: Page) => page.evaluate(() => (globalThis as unknown as Win).__pwned ?? null);

describe('dashboard in Chromium', () => {
  it('renders the matrix, with hostile model names shown as text', async () => {
    const page = await open();
    await page.waitForSelector('#matrix button.cell');
    expect(await page.locator('#matrix button.cell').count()).toBe(8);
    const headers = await page.locator('#matrix thead th').allTextContents();
    expect(headers.slice(1)).toEqual([EVIL, 'gemma3:4b-it-q4_K_M', LLAMA, QWEN]);
    const cell = page.locator(`button.cell[aria-label="debug_python_v1 × ${QWEN}"]`);
    expect(await cell.textContent()).toContain('✓ pass^3');
    expect(await page.locator(`button.cell[aria-label="tdd_order_v1 × ${LLAMA}"]`).textContent()).toContain(
      'running',
    );
    expect(await pwned(page)).toBeNull();
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-matrix.png'), fullPage: true });
    await page.close();
  });

  it('opens the full transcript of each trial when a cell is clicked', async () => {
    const page = await open();
    await page.click(`button.cell[aria-label="debug_python_v1 × ${LLAMA}"]`);
    const first = page.locator('details.trial[data-trial="1"]');
    await first.locator('.turn').first().waitFor();
    const text = (await first.textContent()) ?? '';
    expect(text).toContain('I will run the tests.');
    expect(text).toContain('run_tests');
    expect(text).toContain('✗ invalid: unknown_tool');
    expect(text).toContain('Tamper violations');
    expect(text).toContain('modified test_main.py (not allowed)');
    expect(text).toContain('✗ file_read (process)');
    // Trials load on demand: the third is fetched when it is opened.
    const third = page.locator('details.trial[data-trial="3"]');
    expect(await third.locator('.turn').count()).toBe(0);
    await third.locator('summary').first().click();
    await third.locator('.turn').first().waitFor();
    expect(await third.textContent()).toContain('malformed reply: tool call JSON did not parse');
    const stdout = third.locator('details.fold', { hasText: 'stdout' }).first();
    expect(await stdout.locator('pre').isVisible()).toBe(false);
    await stdout.locator('summary').click();
    expect(await stdout.locator('pre').textContent()).toBe('def add(a, b):\n    return a - b\n');
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-transcript.png'), fullPage: true });
    await page.close();
  });

  it('shows model-written transcript text as text', async () => {
    const page = await open();
    await page.click('button.cell[aria-label^="debug_python_v1 × <img"]');
    const trial = page.locator('details.trial[data-trial="1"]');
    await trial.locator('.turn').first().waitFor();
    expect(await trial.locator('.say').first().textContent()).toBe(
      '<script>window.__pwned = 2</script> reading',
    );
    await trial.locator('details.fold', { hasText: 'stdout' }).locator('summary').click();
    expect(await trial.locator('.final .say').textContent()).toBe('<b>bold</b> ``` fence ```');
    expect(await pwned(page)).toBeNull();
    await page.close();
  });

  it('renders an HTML artifact in a sandboxed iframe that cannot reach the dashboard', async () => {
    const page = await open(`#cell=${LANDING}&trial=1`);
    const iframe = page.locator('iframe.artifact');
    await iframe.waitFor();
    expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts');
    const frame = page.frameLocator('iframe.artifact');
    await frame.locator('#probe', { hasText: 'fetch:' }).waitFor();
    const probe = (await frame.locator('#probe').textContent()) ?? '';
    expect(probe).toContain('parent:blocked');
    expect(probe).toContain('top:blocked');
    expect(probe).toContain('storage:blocked');
    expect(probe).toContain('origin:null');
    expect(probe).toContain('fetch:blocked');
    // It still renders as built: its stylesheet and image load from its own folder.
    expect(
      await frame
        .locator('#title')
        .evaluate((el) => (globalThis as unknown as Win).getComputedStyle(el).color),
    ).toBe('rgb(1, 2, 3)');
    expect(await frame.locator('img').evaluate((el) => (el as unknown as Img).naturalWidth)).toBe(40);
    // Out-of-process frames are missing from full-page captures: shoot the viewport around the frame.
    await iframe.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-artifact.png') });
    await page.close();
  });

  it('opens a direct artifact link as an opaque origin too, never as a dashboard page', async () => {
    const page = await browser.newPage();
    await page.goto(`${dash.url}artifacts/landing_page_v1/${modelSlug(QWEN)}/trial-0/site/index.html`);
    await page.locator('#probe', { hasText: 'fetch:' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as Win).origin)).toBe('null');
    expect(await page.locator('#probe').textContent()).toContain('fetch:blocked');
    await page.close();
  });

  it('compares what each model built side by side', async () => {
    const page = await open('#view=compare');
    await page.locator('#compare-task option').first().waitFor({ state: 'attached' });
    await page.selectOption('#compare-task', 'landing_page_v1');
    await page.locator('#compare-grid iframe.artifact').nth(1).waitFor();
    expect(await page.locator('#compare-path').inputValue()).toBe('site/index.html');
    expect(await page.locator('#compare-grid .panel strong').allTextContents()).toEqual([LLAMA, QWEN]);
    expect(
      await page.frameLocator('#compare-grid iframe.artifact >> nth=0').locator('#built').textContent(),
    ).toBe('Rockets!');
    await page.close();
  });

  it('draws the flag charts and the radar', async () => {
    const page = await open('#view=flags');
    expect(await page.locator('#view-flags svg.chart').count()).toBe(3);
    expect(await page.locator('#view-flags svg.chart').first().textContent()).toContain('file_read *');
    await page.click('#tabs button[data-view="radar"]');
    const img = page.locator('#radar-chart img');
    await img.waitFor();
    await page.waitForFunction(
      () => (globalThis as unknown as Win).document.querySelector('#radar-chart img')?.complete,
    );
    // The image decoded at the size the SVG declares (0 would mean it did not load).
    const svg = await (
      await fetch(`${dash.url}api/radar.svg?${(await img.getAttribute('src'))?.split('?')[1]}`)
    ).text();
    const declared = Number(/<svg[^>]* width="(\d+)"/.exec(svg)?.[1]);
    expect(declared).toBeGreaterThan(0);
    expect(await img.evaluate((el) => (el as unknown as Img).naturalWidth)).toBe(declared);
    await page.locator('#radar-values tbody tr').first().waitFor();
    expect(await page.locator('#radar-values tbody tr').count()).toBeGreaterThanOrEqual(10);
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-radar.png'), fullPage: true });
    await page.close();
  });

  it('starts a run from the panel, streams its log lines live, and cancels it', async () => {
    const page = await open('#view=run');
    await page.locator('#run-model option[value="slow"]').waitFor({ state: 'attached' });
    expect(await page.locator('#run-model option').allTextContents()).toEqual([
      'fast',
      'slow',
      'oracle (reference agent)',
    ]);
    await page.selectOption('#run-model', 'slow');
    await page.selectOption('#run-task', 'tdd_order_v1');
    await page.selectOption('#run-k', '1');
    await page.click('#run-start');
    await page.locator('#run-status[data-status="running"]').waitFor();
    const events = page.locator('#run-log li.event');
    await events.nth(1).waitFor();
    const early = await events.count();
    await events.nth(early + 2).waitFor();
    // More lines arrived while the run was still going: streamed, not delivered at the end.
    expect(await page.locator('#run-status').getAttribute('data-status')).toBe('running');
    const lines = await page.locator('#run-log li').allTextContents();
    expect(lines[0]).toMatch(/^\$ agent-bench run --model slow --tasks tdd_order_v1 --k 1 /);
    expect(
      lines.some((l) => /\[tdd_order_v1 · trial 1 · turn 1\] execute_command echo step-1 → exit 0/.test(l)),
    ).toBe(true);
    // Each event once: the CLI's own progress line for it is not repeated beside it.
    expect(lines.filter((l) => l.includes('echo step-1'))).toHaveLength(1);
    expect(await page.locator('#run-start').isDisabled()).toBe(true);
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-run.png'), fullPage: true });
    await page.screenshot({ path: '/tmp/dash-run.png', fullPage: true });
    await page.click('#run-cancel');
    await page.locator('#run-status[data-status="cancelled"]').waitFor();
    expect(await page.locator('#run-status').textContent()).toContain('cancelled from the dashboard');
    // The fake CLI writes no results file: the panel says so instead of linking to one.
    await page.locator('#run-result', { hasText: 'This run wrote no results file.' }).waitFor();
    await page.close();
  });

  it('refuses a skill folder that does not exist before starting anything', async () => {
    const page = await open('#view=run');
    await page.locator('#run-model option[value="fast"]').waitFor({ state: 'attached' });
    await page.selectOption('#run-model', 'fast');
    await page.fill('#run-skill-dir', join(fixtures.dir, 'no-such-skill'));
    await page.click('#run-start');
    await page.locator('#run-status', { hasText: 'Not started' }).waitFor();
    expect(await page.locator('#run-status').textContent()).toContain('does not exist');
    await page.close();
  });
});

const cellLabels = (page: Page) =>
  page
    .locator('#matrix button.cell')
    .evaluateAll((cells) =>
      cells.map((c) => (c as unknown as { getAttribute(n: string): string }).getAttribute('aria-label')),
    );
const columns = async (page: Page) => (await page.locator('#matrix thead th').allTextContents()).slice(1);
const rows = (page: Page) => page.locator('#matrix tbody th').allTextContents();

describe('matrix filters, sort, hide and run comparison in Chromium', () => {
  it('filters to failures, by model, task and flag', async () => {
    const page = await open();
    await page.waitForSelector('#matrix button.cell');
    await page.check('#filter-failures');
    expect(await page.locator('#matrix .verdict.pass').count()).toBe(0);
    expect(await page.locator('#matrix button.cell').count()).toBe(5);
    expect(await page.locator('#matrix-count').textContent()).toBe('5 of 8 cells shown');
    await page.selectOption('#filter-model', LLAMA);
    expect(await cellLabels(page)).toEqual([
      `debug_python_v1 × ${LLAMA}`,
      `landing_page_v1 × ${LLAMA}`,
      `tdd_order_v1 × ${LLAMA}`,
    ]);
    await page.selectOption('#filter-model', '');
    await page.selectOption('#filter-task', 'tdd_order_v1');
    expect(await rows(page)).toEqual(['tdd_order_v1']);
    await page.selectOption('#filter-task', '');
    // A flag with failures only: the cells where that flag was missed, with its reach rate shown.
    await page.selectOption('#filter-flag', 'self_verify');
    expect(await cellLabels(page)).toEqual([`debug_python_v1 × ${EVIL}`, `debug_python_v1 × ${LLAMA}`]);
    expect(await page.locator('#matrix button.cell').first().textContent()).toContain('self_verify 0%');
    await page.screenshot({ path: '/tmp/dash-filter.png', fullPage: true });
    await page.uncheck('#filter-failures');
    expect(await page.locator('#matrix button.cell').count()).toBe(4);
    await page.close();
  });

  it('sorts rows and columns by score and by time per trial', async () => {
    const page = await open();
    await page.waitForSelector('#matrix button.cell');
    await page.selectOption('#matrix-sort', 'score-asc');
    expect(await columns(page)).toEqual([EVIL, LLAMA, QWEN, 'gemma3:4b-it-q4_K_M']);
    await page.selectOption('#matrix-sort', 'score-desc');
    expect(await columns(page)).toEqual(['gemma3:4b-it-q4_K_M', QWEN, LLAMA, EVIL]);
    expect(await rows(page)).toEqual(['tdd_order_v1', 'landing_page_v1', 'debug_python_v1']);
    await page.selectOption('#matrix-sort', 'time-desc');
    expect(await columns(page)).toEqual(['gemma3:4b-it-q4_K_M', QWEN, LLAMA, EVIL]);
    expect(await rows(page)).toEqual(['tdd_order_v1', 'debug_python_v1', 'landing_page_v1']);
    await page.selectOption('#matrix-sort', 'time-asc');
    expect(await columns(page)).toEqual([EVIL, LLAMA, QWEN, 'gemma3:4b-it-q4_K_M']);
    await page.screenshot({ path: '/tmp/dash-sort.png', fullPage: true });
    await page.close();
  });

  it("shows a run's sampling settings and server, and compares two runs of one cell", async () => {
    const page = await open();
    await page.click(`button.cell[aria-label="debug_python_v1 × ${QWEN}"]`);
    const facts = page.locator('#run-facts');
    await facts.waitFor();
    const text = (await facts.textContent()) ?? '';
    expect(text).toContain('temperature 0 · no seed');
    expect(text).toContain('llama-server b1234');
    expect(text).toContain('context 32768 tokens');
    await facts.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/dash-settings.png' });
    await page.click('#detail button[data-compare]');
    const table = page.locator('#run-compare table');
    await table.waitFor();
    const score = await table.locator('tr', { hasText: 'score' }).first().locator('td').allTextContents();
    expect(score).toEqual(['1.00 (3 of k=3 trials)', '0.88 (2 of k=3 trials, early-stopped)']);
    expect(
      await table.locator('tr.differs', { hasText: 'flag self_verify' }).locator('td').allTextContents(),
    ).toEqual(['100%', '50%']);
    expect(await table.locator('tr', { hasText: 'tokens' }).count()).toBe(1);
    await page.locator('#run-compare').scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/dash-compare.png', fullPage: true });
    await page.close();
  });

  it('hides a run (the cell falls back to the run before it) and shows it again', async () => {
    const page = await open();
    const cell = page.locator(`button.cell[aria-label="debug_python_v1 × ${QWEN}"]`);
    expect(await cell.textContent()).toContain('✓ pass^3');
    await cell.click();
    await page.click('#run-hide');
    await page.locator('#hidden-runs summary', { hasText: '1 hidden run(s)' }).waitFor();
    expect(await cell.textContent()).toContain('✗ 0.88');
    // Still hidden after a reload: it is remembered in the results folder.
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await cell.textContent()).toContain('✗ 0.88');
    await page.click('#hidden-runs summary');
    await page.screenshot({ path: '/tmp/dash-hidden.png', fullPage: true });
    await page.click('#hidden-runs button');
    await page.locator('#hidden-runs').waitFor({ state: 'hidden' });
    expect(await cell.textContent()).toContain('✓ pass^3');
    await page.close();
  });

  it('moves a run to the trash after asking, and it leaves the page', async () => {
    const page = await open();
    await page.click(`button.cell[aria-label="debug_python_v1 × ${QWEN}"]`);
    const older = page.locator(`#detail button[data-compare="${OLDER_QWEN}"]`);
    await older.waitFor();
    // Open the older run, then trash it; the dialog must be accepted.
    await page.locator('#detail .other-run button.badge').first().click();
    await page.locator('#detail h2').waitFor();
    await page.locator('#run-trash').waitFor();
    expect(await page.locator('#detail .meta').first().textContent()).toContain(OLDER_QWEN);
    page.once('dialog', (d) => void d.accept());
    await page.click('#run-trash');
    await page.locator('#detail h2').waitFor({ state: 'detached' });
    expect(existsSync(join(fixtures.dir, '.trash', OLDER_QWEN))).toBe(true);
    expect(existsSync(join(fixtures.dir, OLDER_QWEN))).toBe(false);
    await page.click(`button.cell[aria-label="debug_python_v1 × ${QWEN}"]`);
    await page.locator('#run-trash').waitFor();
    expect(await page.locator('#detail .other-run').count()).toBe(0);
    await page.close();
  });
});
