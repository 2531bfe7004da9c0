/**
 * End to end with the real runner: a run started from the dashboard's panel, with a scripted model
 * replaying a task's reference solution, streams its events into the page while the real CLI runs it
 * in the Docker sandbox, then shows up in the matrix.
 *
 * Needs what CI provides: a built CLI (`npm run build`: bin/agent-bench runs dist/), the task registry
 * (tasks/index.ts), a Docker engine and the sandbox image (`node bin/agent-bench image build`). Without
 * them the test is skipped with the reason printed. Run it alone with:
 *   npm run build && node bin/agent-bench image build && npx vitest run test/dashboard/e2e-run.test.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dashboard, startDashboard } from '../../src/dashboard/server.js';
import type { Task } from '../../src/tasks/types.js';
import { packageRoot } from '../../src/util/package-root.js';
import { type ScriptedServer, startScriptedServer, turnsToReplies } from '../helpers/scripted-server.js';
import { launchChromium, TEST_OUTPUT } from './browser.js';

const ROOT = packageRoot();
const MODEL = 'scripted-agent';

function missing(): string | null {
  if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js'))) return 'the CLI is not built (npm run build)';
  if (!existsSync(join(ROOT, 'tasks', 'index.ts'))) return 'there is no task registry (tasks/index.ts)';
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    return 'no Docker engine';
  }
  return null;
}

const why = missing();
if (why !== null) process.stderr.write(`e2e-run: skipped: ${why}\n`);

describe.skipIf(why !== null)('a run started from the dashboard, with the real runner', () => {
  let browser: Browser;
  let dash: Dashboard;
  let server: ScriptedServer;
  let task: Task;
  const base = mkdtempSync(join(tmpdir(), 'ab-e2e-run-'));

  beforeAll(async () => {
    const registry = (await import(pathToFileURL(join(ROOT, 'tasks', 'index.ts')).href)) as {
      allTasks(): Task[];
    };
    const first = registry.allTasks().find((t) => !t.meta.heavy);
    if (first === undefined) throw new Error('the registry has no light task');
    task = first;
    server = await startScriptedServer({ scripts: { [MODEL]: turnsToReplies(task.referenceSolution) } });
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
    expect(log).toContain(`[${task.id} · trial 0] trial ended: passed`);
    await page.click('#tabs button[data-view="matrix"]');
    await page.locator(`button.cell[aria-label="${task.id} × ${MODEL}"]`, { hasText: 'pass^1' }).waitFor();
    await page.close();
  });
});
