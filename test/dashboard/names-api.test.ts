/**
 * The dashboard's API on llama-server models named by file path: the index gives each run its model's
 * short name and its condition; the radar takes short names (an ambiguous one is a 400 naming the
 * candidates) and groups many tasks by the catalogue's domains; compare answers one condition at a time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dashboard } from '../../src/dashboard/server.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { opsResult, P } from '../report/ops-results.js';
import { raw, startTestDashboard } from './harness.js';

const TINY = '/root/.cache/agent-bench/models/qwen-tiny-Q8_0.gguf';
const TWIN_A = '/llama/7B/ggml-model-q4_0.gguf';
const TWIN_B = '/llama/13B/ggml-model-q4_0.gguf';
const NOISY = { name: 'noisy', failure_rate: 0.2, fault_timeout_sec: 10 } as const;
// Two of the fake catalogue's tasks (domain `python`) and eleven it does not know (derived: `extra`).
const TASKS = ['debug_python_v1', 'tdd_order_v1', ...Array.from({ length: 11 }, (_, i) => `extra_${i}_v1`)];

let dash: Dashboard;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ab-names-api-'));
  const results: ResultFile[] = [
    ...TASKS.map((task) => opsResult({ task, model: TINY, trials: [P] })),
    opsResult({ task: 'debug_python_v1', model: TINY, condition: NOISY, trials: [P] }),
    opsResult({ task: 'debug_python_v1', model: TWIN_A, trials: [P] }),
    opsResult({ task: 'debug_python_v1', model: TWIN_B, trials: [P] }),
  ];
  for (const [i, r] of results.entries()) writeFileSync(join(dir, `r${i}.json`), JSON.stringify(r));
  dash = await startTestDashboard({ resultsDir: dir });
});
afterAll(async () => {
  await dash.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = async (path: string) => {
  const res = await raw(dash.port, 'GET', path);
  return { status: res.status, body: JSON.parse(res.body) };
};

describe('model names and conditions in the dashboard API', () => {
  it('gives each run its short name, unique over the folder, and its condition', async () => {
    const { body } = await get('/api/index');
    const runs = body.results as { model: string; label: string; condition_key: string }[];
    const label = (model: string) => runs.find((r) => r.model === model)?.label;
    expect(label(TINY)).toBe('qwen-tiny-Q8_0');
    expect(label(TWIN_A)).toBe('7B/ggml-model-q4_0');
    expect(label(TWIN_B)).toBe('13B/ggml-model-q4_0');
    expect(new Set(runs.map((r) => r.condition_key))).toEqual(new Set(['clean', 'noisy@0.2']));
  });

  it('draws the radar of a short name, one spoke per domain past 12 tasks', async () => {
    const { status, body } = await get('/api/radar?models=qwen-tiny-Q8_0');
    expect(status).toBe(200);
    expect(body.series[0].model).toBe(TINY);
    expect(body.series[0].label).toBe('qwen-tiny-Q8_0');
    const spokes = (body.axes as { id: string; tasks?: string[] }[]).filter((a) =>
      a.id.startsWith('domain:'),
    );
    expect(spokes.map((a) => a.id)).toEqual(['domain:extra', 'domain:python']);
    expect(spokes[1]?.tasks).toEqual(['debug_python_v1', 'tdd_order_v1']);
  });

  it('refuses a short name two models share, naming both', async () => {
    const res = await raw(dash.port, 'GET', '/api/radar?models=ggml-model-q4_0');
    expect(res.status).toBe(400);
    expect(res.body).toContain(`it names ${TWIN_B}, ${TWIN_A}`);
  });

  it('compares one condition at a time, and lists the conditions there are', async () => {
    const clean = await get('/api/compare?task=debug_python_v1');
    expect(clean.body.condition).toBe('clean');
    expect(clean.body.conditions).toEqual(['clean', 'noisy@0.2']);
    expect(clean.body.models.map((m: { label: string }) => m.label)).toEqual([
      '13B/ggml-model-q4_0',
      '7B/ggml-model-q4_0',
      'qwen-tiny-Q8_0',
    ]);
    const noisy = await get('/api/compare?task=debug_python_v1&condition=noisy%400.2');
    expect(noisy.body.condition).toBe('noisy@0.2');
    expect(noisy.body.models.map((m: { model: string }) => m.model)).toEqual([TINY]);
  });
});
