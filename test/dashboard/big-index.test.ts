/**
 * A results folder of 2,000 trials and tens of megabytes: the index the page loads first carries
 * summaries only, so it stays small whatever the transcripts weigh. (Timings: scripts/bench-dashboard.mjs.)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/dashboard/server.js';
import { buildResult, type TrialSpec } from '../helpers/result-builder.js';
import { raw, startTestDashboard } from './harness.js';

const FILES = 200;
const TRIALS_PER_FILE = 10;
const MARKER = 'TRANSCRIPT-ONLY-MARKER';
const base = mkdtempSync(join(tmpdir(), 'ab-big-'));
let dash: Dashboard;
let totalBytes = 0;

function trial(i: number): TrialSpec {
  const output = `${MARKER} ${'x'.repeat(3000)}`;
  return {
    flags: { explored: ['process', 1], fixed: ['outcome', i % 3 === 0 ? false : null] },
    turns: Array.from({ length: 5 }, (_, t) => ({
      text: `turn ${t} reasoning`,
      calls: [{ name: 'execute_command', args: { command: `step ${t}` }, stdout: output }],
    })),
  };
}

beforeAll(async () => {
  mkdirSync(join(base, 'results'));
  for (let f = 0; f < FILES; f++) {
    const built = buildResult({
      task: `task_${f % 20}`,
      model: `model-${Math.floor(f / 20)}`,
      runId: `20250101T0000${String(f).padStart(5, '0')}Z-big`,
      startedAt: new Date(Date.UTC(2025, 0, 1, 0, 0, f)).toISOString(),
      k: TRIALS_PER_FILE,
      trials: Array.from({ length: TRIALS_PER_FILE }, (_, i) => trial(i)),
    });
    const text = JSON.stringify(built.result);
    totalBytes += text.length;
    writeFileSync(join(base, 'results', built.fileName), text);
  }
  dash = await startTestDashboard({ resultsDir: join(base, 'results') });
});

afterAll(async () => {
  await dash.close();
  rmSync(base, { recursive: true, force: true });
});

describe('a big results folder', () => {
  it('is tens of megabytes of transcripts', () => {
    expect(totalBytes).toBeGreaterThan(30_000_000);
  });

  it('opens with an index of summaries only: every result, no transcript text, a small payload', async () => {
    const res = await raw(dash.port, 'GET', '/api/index');
    const index = JSON.parse(res.body) as { results: { trials_run: number }[] };
    expect(index.results).toHaveLength(FILES);
    expect(index.results.reduce((n, r) => n + r.trials_run, 0)).toBe(FILES * TRIALS_PER_FILE);
    expect(res.body).not.toContain(MARKER);
    // Under 1.5 KB per results file, i.e. about 0.1% of what the folder holds.
    expect(res.body.length).toBeLessThan(FILES * 1500);
  });

  it('loads one transcript on demand', async () => {
    const { results } = JSON.parse((await raw(dash.port, 'GET', '/api/index')).body) as {
      results: { file: string }[];
    };
    const file = results[0]?.file ?? '';
    const res = await raw(dash.port, 'GET', `/api/trial?file=${encodeURIComponent(file)}&index=3`);
    expect(res.status).toBe(200);
    expect(res.body).toContain(MARKER);
    expect(res.body.length).toBeLessThan(totalBytes / FILES / 5);
  });
});
