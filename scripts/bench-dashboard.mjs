#!/usr/bin/env node
// Figures for the dashboard on a big synthetic results folder: how long the first (cold) and a later
// (warm) index take, how big the index is, and how long one transcript takes. Prints, asserts nothing.
// Needs the build: `npm run build && node scripts/bench-dashboard.mjs [--trials 5000] [--per-file 10]`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { trials: { type: 'string', default: '5000' }, 'per-file': { type: 'string', default: '10' } },
});
const trials = Number(values.trials);
const perFile = Number(values['per-file']);
const { startDashboard } = await import(new URL('../dist/src/dashboard/server.js', import.meta.url).href);

const base = mkdtempSync(join(tmpdir(), 'ab-bench-dash-'));
const dir = join(base, 'results');
mkdirSync(dir);
const output = 'x'.repeat(2000);
const call = (t) => ({
  name: 'execute_command',
  arguments: { command: `step ${t}` },
  raw_arguments: '{}',
  source: 'native',
  invalid: null,
  cwd: '/workspace',
  exit_code: 0,
  stdout: output,
  stderr: '',
  truncated: false,
  timed_out: false,
  elapsed_ms: 10,
});
const turn = (t) => ({
  turn: t,
  assistant_text: 'thinking',
  tool_calls: [call(t)],
  elapsed_ms: 100,
  model_latency_ms: 90,
  usage: null,
  finish_reason: 'tool_calls',
  retries: [],
  malformed: null,
});
const trial = (index) => ({
  index,
  status: 'passed',
  passed: true,
  score: 1,
  flags: { a: { reached: true, turn: 1, kind: 'outcome' } },
  tamper_detected: false,
  tamper_violations: [],
  failure_reason: null,
  turns: 6,
  elapsed_sec: 3,
  harness_sec: 1,
  usage: { prompt_tokens: 100, completion_tokens: 50 },
  final_answer: 'done',
  native_tool_calls: 6,
  text_tool_calls: 0,
  invalid_tool_call_count: 0,
  missing_argument_count: 0,
  malformed_replies: 0,
  started_at: '2025-01-01T00:00:00.000Z',
  turn_logs: [1, 2, 3, 4, 5, 6].map(turn),
});
let bytes = 0;
const files = Math.ceil(trials / perFile);
for (let f = 0; f < files; f++) {
  const started = new Date(Date.UTC(2025, 0, 1, 0, 0, f)).toISOString();
  const result = {
    schema_version: '2.0',
    run_id: `bench-${f}`,
    task_id: `task_${f % 25}`,
    task_version: '1',
    model: `model-${f % 40}`,
    status: 'complete',
    k: perFile,
    trials_run: perFile,
    early_stopped: false,
    container_reuse: true,
    pass_all_k: true,
    score: 1,
    pass_hat_k: 1,
    skills: { a: { kind: 'outcome', reach_rate: 1, avg_turns: 1 } },
    invalid_tool_call_count: 0,
    tamper_detected_count: 0,
    native_tool_calls: 6 * perFile,
    text_tool_calls: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    elapsed_sec: 3 * perFile,
    avg_turns: 6,
    comparable: true,
    non_comparable_reasons: [],
    settings: {},
    started_at: started,
    updated_at: started,
    error: null,
    environment: { base_url: null, server: null, harness_version: '0' },
    trials: Array.from({ length: perFile }, (_, i) => trial(i)),
    result_hash: '',
  };
  const text = JSON.stringify(result);
  bytes += text.length;
  writeFileSync(join(dir, `task_${f % 25}__model-${f % 40}__bench-${f}.json`), text);
}

const dash = await startDashboard({ resultsDir: dir, host: '127.0.0.1', port: 0, baseUrl: null });
const time = async (path) => {
  const t0 = performance.now();
  const res = await fetch(`${dash.url}${path.slice(1)}`);
  const body = await res.text();
  return { ms: performance.now() - t0, size: body.length, body };
};
const cold = await time('/api/index');
const warm = await time('/api/index');
const file = JSON.parse(cold.body).results[0].file;
const transcript = await time(`/api/trial?file=${encodeURIComponent(file)}&index=0`);
const page = await time('/');
await dash.close();
rmSync(base, { recursive: true, force: true });

const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
console.log(`results folder: ${files} files, ${files * perFile} trials, ${mb(bytes)}`);
console.log(`index, cold (reads every file): ${cold.ms.toFixed(0)} ms, ${(cold.size / 1024).toFixed(0)} KiB`);
console.log(`index, warm (unchanged files):  ${warm.ms.toFixed(0)} ms`);
console.log(
  `one transcript:                 ${transcript.ms.toFixed(0)} ms, ${(transcript.size / 1024).toFixed(0)} KiB`,
);
console.log(`page:                           ${page.ms.toFixed(0)} ms`);
