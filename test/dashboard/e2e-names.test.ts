/**
 * The dashboard in Chromium on results of llama-server models, which name themselves by file path: the
 * matrix heads its columns with short names that fit (the full path on hover), and every place that lists
 * runs — a cell's other runs, the run compare, the Compare tab, the Axes tab — labels each run's
 * condition and compares like with like. Screenshots go to test-output/.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/dashboard/server.js';
import type { RunCondition } from '../../src/results/condition.js';
import { artifactsDir } from '../../src/results/layout.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { withHash } from '../../src/results/store.js';
import { F, opsResult, P } from '../report/ops-results.js';
import { launchChromium, TEST_OUTPUT } from './browser.js';
import { startTestDashboard } from './harness.js';

const CODER = '/root/.cache/agent-bench/models/qwen2.5-coder-7b-instruct-Q4_K_M.gguf';
const TINY = '/root/.cache/agent-bench/models/qwen-tiny-Q8_0.gguf';
const NOISY: RunCondition = { name: 'noisy', failure_rate: 0.2, fault_timeout_sec: 10 };
const ADVERSARIAL: RunCondition = { name: 'adversarial' };
const TASK = 'debug_python_v1';

let browser: Browser;
let dash: Dashboard;
let dir: string;

/** Clean runs of both models on two tasks, an older clean run, and a noisy and an adversarial one (newer). */
function results(): ResultFile[] {
  const out: ResultFile[] = [];
  for (const model of [CODER, TINY])
    for (const task of [TASK, 'tdd_order_v1'])
      out.push(opsResult({ task, model, k: 2, trials: [P, model === TINY ? F : P] }));
  out.push(
    opsResult({ task: TASK, model: CODER, k: 2, startedAt: '2024-12-01T00:00:00.000Z', trials: [P, F] }),
    opsResult({
      task: TASK,
      model: CODER,
      k: 2,
      condition: NOISY,
      startedAt: '2025-02-01T00:00:00.000Z',
      trials: [P, F],
    }),
    opsResult({
      task: TASK,
      model: CODER,
      k: 2,
      condition: ADVERSARIAL,
      startedAt: '2025-02-02T00:00:00.000Z',
      trials: [F, F],
    }),
  );
  return out;
}

/** What a run's first trial built, in its condition's artifacts folder: the text says which run it is. */
function withArtifact(r: ResultFile): ResultFile {
  const condition = r.condition ?? { name: 'clean' };
  const folder = artifactsDir(r.task_id, r.model, 0, condition);
  const text = `built by ${r.model} ${condition.name}`;
  mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(join(dir, folder, 'out.txt'), text);
  const { result_hash: _, schema_version: __, ...rest } = r;
  const record = {
    path: 'out.txt',
    size: text.length,
    sha256: createHash('sha256').update(text).digest('hex'),
    exported: true,
  };
  return withHash({
    ...rest,
    trials: r.trials.map((t) => (t.index === 0 ? { ...t, artifacts: [record], artifacts_dir: folder } : t)),
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ab-names-dash-'));
  for (const [i, r] of results().entries()) {
    const built = r.task_id === TASK && r.started_at !== '2024-12-01T00:00:00.000Z' ? withArtifact(r) : r;
    writeFileSync(join(dir, `r${i}.json`), JSON.stringify(built));
  }
  dash = await startTestDashboard({ resultsDir: dir });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await dash?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(hash = ''): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${dash.url}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

type Th = {
  textContent: string;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { width: number };
};

describe('llama-server model names and conditions in the dashboard', () => {
  it('heads the matrix with short names that fit, the full path on hover', async () => {
    const page = await open();
    await page.waitForSelector('#matrix button.cell');
    const heads = page.locator('#matrix thead th[title]');
    expect(await heads.allTextContents()).toEqual(['qwen-tiny-Q8_0', 'qwen2.5-coder-7b-instruct-Q4_K_M']);
    expect(await heads.evaluateAll((ths) => ths.map((th) => th.getAttribute('title')))).toEqual([
      TINY,
      CODER,
    ]);
    const sizes = await heads.evaluateAll((ths) =>
      (ths as unknown as Th[]).map((th) => ({
        overflow: th.scrollWidth - th.clientWidth,
        width: th.getBoundingClientRect().width,
      })),
    );
    for (const s of sizes) {
      expect(s.overflow).toBe(0);
      // A full path (~70 characters) would make its column ~500 px wide; a short name fits a cell.
      expect(s.width).toBeLessThan(330);
    }
    // Only clean runs are cells: 2 models × 2 tasks.
    expect(await page.locator('#matrix button.cell').count()).toBe(4);
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-model-names.png'), fullPage: true });
    await page.close();
  });

  it("labels a cell's runs by condition and compares only runs of its own", async () => {
    const page = await open();
    await page.click(`#matrix button.cell[aria-label="${TASK} × qwen2.5-coder-7b-instruct-Q4_K_M"]`);
    await page.waitForSelector('#detail h2');
    expect(await page.locator('#detail h2').textContent()).toBe(
      `${TASK} × qwen2.5-coder-7b-instruct-Q4_K_M clean`,
    );
    expect(await page.locator('#detail h2 .model-name').getAttribute('title')).toBe(CODER);
    const same = page.locator('#other-runs');
    expect(await same.locator('[data-compare]').count()).toBe(1);
    expect(await same.locator('.condition').textContent()).toBe('clean');
    const other = page.locator('#other-conditions');
    expect(await other.locator('.condition').allTextContents()).toEqual(['adversarial', 'noisy@0.2']);
    expect(await other.locator('[data-compare]').count()).toBe(0);
    await same.locator('[data-compare]').click();
    const compare = page.locator('#run-compare');
    await compare.locator('table').waitFor();
    expect(await compare.locator('h3 .condition').textContent()).toBe('clean');
    const row = compare.locator('tr', { has: page.locator('th', { hasText: /^condition$/ }) });
    expect(await row.locator('td').allTextContents()).toEqual(['clean', 'clean']);
    await page.locator('#detail').screenshot({ path: join(TEST_OUTPUT, 'dashboard-cell-conditions.png') });
    await page.close();
  });

  it('compares what models built under one condition at a time, labelled', async () => {
    const page = await open('#view=compare');
    await page.locator('#compare-task option').first().waitFor({ state: 'attached' });
    await page.selectOption('#compare-task', TASK);
    await page.locator('#compare-grid .panel').nth(1).waitFor();
    const options = page.locator('#compare-condition option');
    expect(await options.allTextContents()).toEqual(['clean', 'adversarial', 'noisy@0.2']);
    const panels = page.locator('#compare-grid .panel');
    // Polled: the grid is drawn again as the task's files arrive, and may be read mid-way.
    await expect
      .poll(() => panels.locator('strong').allTextContents())
      .toEqual(['qwen-tiny-Q8_0', 'qwen2.5-coder-7b-instruct-Q4_K_M']);
    await expect.poll(() => panels.locator('.condition').allTextContents()).toEqual(['clean', 'clean']);
    await page.selectOption('#compare-condition', 'noisy@0.2');
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } })
        .document;
      return doc.querySelectorAll('#compare-grid .panel').length === 1;
    });
    // The grid is redrawn as the noisy run's files arrive: wait for what it settles on.
    await expect.poll(() => panels.locator('.condition').allTextContents()).toEqual(['noisy@0.2']);
    // The noisy run's own artifact, not the clean run's.
    await expect.poll(() => panels.first().textContent()).toContain(`built by ${CODER} noisy`);
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-compare-conditions.png'), fullPage: true });
    await page.close();
  });

  it('labels each Axes row with its condition and the model by its short name', async () => {
    const page = await open();
    await page.click('#tabs button[data-view="axes"]');
    await page.waitForSelector('#axes-main tbody tr');
    const rows = page.locator('#axes-main tbody tr');
    const cells = await rows.evaluateAll((trs) =>
      trs.map((tr) =>
        [...(tr as unknown as { cells: { textContent: string }[] }).cells]
          .slice(0, 2)
          .map((c) => c.textContent),
      ),
    );
    expect(cells).toEqual(
      expect.arrayContaining([
        ['qwen2.5-coder-7b-instruct-Q4_K_M', 'clean'],
        ['qwen2.5-coder-7b-instruct-Q4_K_M', 'noisy@0.2'],
        ['qwen2.5-coder-7b-instruct-Q4_K_M', 'adversarial'],
        ['qwen-tiny-Q8_0', 'clean'],
      ]),
    );
    expect(await rows.first().locator('td').first().getAttribute('title')).toMatch(/^\/root\/\.cache\//);
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-axes-names.png'), fullPage: true });
    await page.close();
  });
});
