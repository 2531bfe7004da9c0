/**
 * The dashboard in Chromium on a trial with MCP calls: the transcript marks each call of an MCP
 * server's tool with its server and tool (`MCP inventory · stock_level`), names its output the
 * server's result or error, and leaves a built-in call unmarked. Screenshot in test-output/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/dashboard/server.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { withHash } from '../../src/results/store.js';
import type { ToolCallLog } from '../../src/results/trial.js';
import { PASS, result } from '../helpers/result-builder.js';
import { launchChromium, TEST_OUTPUT } from './browser.js';
import { startTestDashboard } from './harness.js';

const FILE = 'mcp-run.json';
const TASK = 'mcp_inventory';
const MODEL = 'qwen3:8b';

let browser: Browser;
let dash: Dashboard;
let dir: string;

/** A call of the inventory server's tool as the turn log records it. */
function mcpCall(sku: string, answer: { stdout: string } | { stderr: string }): ToolCallLog {
  const ok = 'stdout' in answer;
  return {
    name: 'inventory__stock_level',
    arguments: { sku },
    raw_arguments: JSON.stringify({ sku }),
    source: 'native',
    invalid: null,
    cwd: '/workspace',
    exit_code: ok ? 0 : 1,
    stdout: ok ? answer.stdout : '',
    stderr: ok ? '' : answer.stderr,
    truncated: false,
    timed_out: false,
    elapsed_ms: 40,
    mcp: { server: 'inventory', tool: 'stock_level' },
  };
}

/** One trial: a built-in call, then a failed and a successful MCP call in the next turn. */
function withMcpCalls(r: ResultFile): ResultFile {
  const { result_hash: _, schema_version: __, ...rest } = r;
  const [trial] = r.trials;
  const [turn] = trial?.turn_logs ?? [];
  if (trial === undefined || turn === undefined) throw new Error('the built result has a turn');
  const second = {
    ...turn,
    turn: 2,
    tool_calls: [
      mcpCall('ZZ-1', { stderr: 'unknown SKU ZZ-1' }),
      mcpCall('AB-42', { stdout: 'AB-42: 317 units in stock' }),
    ],
  };
  return withHash({ ...rest, trials: [{ ...trial, turns: 3, turn_logs: [turn, second] }] });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ab-mcp-dash-'));
  writeFileSync(
    join(dir, FILE),
    JSON.stringify(withMcpCalls(result({ task: TASK, model: MODEL, trials: [PASS] }))),
  );
  dash = await startTestDashboard({ resultsDir: dir });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await dash?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(hash: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${dash.url}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  return page;
}

describe('MCP calls in the dashboard', () => {
  it('the transcript marks each MCP call with its server and tool, and its output as the server’s', async () => {
    const page = await open(`#cell=${FILE}&trial=1`);
    const trial = page.locator('details.trial[data-trial="1"]');
    await trial.locator('.turn').first().waitFor();
    const calls = trial.locator('.call');
    expect(await calls.count()).toBe(3);
    const badges = await calls.evaluateAll((els) =>
      els.map((c) => [...c.querySelectorAll('.call-line .badge')].map((b) => b.textContent)),
    );
    expect(badges).toEqual([[], ['MCP inventory · stock_level'], ['MCP inventory · stock_level']]);
    const folds = async (i: number) => calls.nth(i).locator('details.fold summary').allTextContents();
    expect(await folds(0)).toEqual(['arguments']);
    expect(await folds(1)).toEqual(['arguments', 'error (16 chars)']);
    expect(await folds(2)).toEqual(['arguments', 'result (25 chars)']);
    expect(await calls.nth(1).locator('.call-line').textContent()).toContain('✗ exit 1');
    await calls.nth(2).locator('details.fold', { hasText: 'result' }).locator('summary').click();
    expect(
      await calls.nth(2).locator('details.fold', { hasText: 'result' }).locator('pre').textContent(),
    ).toBe('AB-42: 317 units in stock');
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-mcp-calls.png'), fullPage: true });
    await page.close();
  });
});
