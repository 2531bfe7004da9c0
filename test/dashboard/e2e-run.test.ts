/**
 * End to end with the real runner: a run started from the dashboard's panel, with a scripted model
 * replaying a task's reference solution, streams its events into the page while the real CLI runs it
 * in the Docker sandbox, then shows up in the matrix.
 *
 * Needs what CI provides: a built CLI (`npm run build`: bin/agent-bench runs dist/), the task registry
 * (src/catalogue/), a Docker engine and the sandbox image (`node bin/agent-bench image build`). Without
 * them the test fails with the reason (the global setup builds the CLI). Run it alone with:
 *   node bin/agent-bench image build && npx vitest run test/dashboard/e2e-run.test.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import { type Dashboard, startDashboard } from '../../src/dashboard/server.js';
import type { Task } from '../../src/tasks/types.js';
import { packageRoot } from '../../src/util/package-root.js';
import { type ScriptedServer, startScriptedServer, turnsToReplies } from '../helpers/scripted-server.js';
import { launchChromium, TEST_OUTPUT } from './browser.js';

const ROOT = packageRoot();
const MODEL = 'scripted-agent';
/** Never finishes on its own: one slow shell command per turn, so there is a container to cancel. */
const SLOW = 'slow-agent';

function containersOf(cliRunId: string): string[] {
  const out = execFileSync('docker', ['ps', '-aq', '--filter', `label=agent-bench.run=${cliRunId}`], {
    encoding: 'utf8',
  });
  return out.split('\n').filter((line) => line !== '');
}

function missing(): string | null {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) return 'the CLI is not built (npm run build)';
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    return 'no Docker engine';
  }
  return null;
}

// Never skipped: a missing prerequisite is a failure, so CI cannot pass without running this test.
const why = missing();

describe('a run started from the dashboard, with the real runner', () => {
  let browser: Browser;
  let dash: Dashboard;
  let server: ScriptedServer;
  let task: Task;
  const base = mkdtempSync(join(tmpdir(), 'ab-e2e-run-'));

  beforeAll(async () => {
    if (why !== null) throw new Error(`cannot run the end-to-end run test: ${why}`);
    const first = allTasks().find((t) => !t.meta.heavy);
    if (first === undefined) throw new Error('the registry has no light task');
    task = first;
    server = await startScriptedServer({
      scripts: {
        [MODEL]: turnsToReplies(task.referenceSolution),
        [SLOW]: () => ({
          calls: [{ name: 'execute_command', arguments: { command: 'sleep 1' } }],
          delayMs: 300,
        }),
      },
    });
    dash = await startDashboard({
      resultsDir: join(base, 'results'),
      host: '127.0.0.1',
      port: 0,
      baseUrl: server.baseUrl,
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await dash?.close();
    await server?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('streams the run turn by turn and then shows its result', { timeout: 15 * 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${dash.url}#view=run`);
    await page.locator(`#run-model option[value="${MODEL}"]`).waitFor({ state: 'attached' });
    await page.selectOption('#run-model', MODEL);
    await page.selectOption('#run-task', task.id);
    await page.selectOption('#run-k', '1');
    await page.click('#run-start');
    await page.locator('#run-status[data-status="running"]').waitFor();
    // A tool call event arrives while the run is still going (the sandbox image may be built first).
    await page
      .locator('#run-log li.event', { hasText: 'turn 1' })
      .first()
      .waitFor({ timeout: 14 * 60_000 });
    expect(await page.locator('#run-status').getAttribute('data-status')).toBe('running');
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-real-run.png') });
    await page.locator('#run-status[data-status="succeeded"]').waitFor({ timeout: 5 * 60_000 });
    const log = (await page.locator('#run-log').textContent()) ?? '';
    expect(log).toContain(`[${task.id} · trial 1] trial ended: passed`);
    // The panel links to the result the run wrote.
    await page.locator('#run-result a.result-link', { hasText: 'pass^1' }).waitFor();
    await page.click('#tabs button[data-view="matrix"]');
    await page.locator(`button.cell[aria-label="${task.id} × ${MODEL}"]`, { hasText: 'pass^1' }).waitFor();
    await page.close();
  });

  it('cancel stops the run and removes its container', { timeout: 5 * 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${dash.url}#view=run`);
    await page.locator(`#run-model option[value="${SLOW}"]`).waitFor({ state: 'attached' });
    await page.selectOption('#run-model', SLOW);
    await page.selectOption('#run-task', task.id);
    await page.selectOption('#run-k', '1');
    await page.click('#run-start');
    await page
      .locator('#run-log li.event', { hasText: 'execute_command sleep 1' })
      .first()
      .waitFor({ timeout: 4 * 60_000 });
    // Where the run is, from the CLI's own status file: the trial in flight, its turn, the time.
    await page
      .locator('#run-progress-line', {
        hasText: new RegExp(`^task 1/1 ${task.id} · trial 1/1 · turn \\d+/\\d+ · 0/1 trials · \\d+s elapsed`),
      })
      .waitFor({ timeout: 30_000 });
    expect(await page.locator('#run-progress').isVisible()).toBe(true);
    await page.screenshot({ path: join(TEST_OUTPUT, 'dashboard-run-progress.png') });
    const state = (await (await fetch(`${dash.url}api/run`)).json()) as {
      run: { cli_run_id: string | null };
    };
    const runId = state.run.cli_run_id;
    if (runId === null) throw new Error('the run id was not learned from events.jsonl');
    expect(containersOf(runId)).toHaveLength(1);
    await page.click('#run-cancel');
    await page.locator('#run-status[data-status="cancelled"]').waitFor({ timeout: 60_000 });
    expect(containersOf(runId)).toEqual([]);
    await page.close();
  });
});
