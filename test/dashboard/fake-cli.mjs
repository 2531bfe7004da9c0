#!/usr/bin/env node
// Stands in for bin/agent-bench in the run-panel tests: behaves like `agent-bench run` as the dashboard
// sees it (appends events to <results-dir>/events.jsonl, prints progress, stops on SIGTERM) without
// Docker or a model. The model name picks the behaviour: "stubborn" ignores SIGTERM; "burst" writes every
// event at once and exits straight after (quicker than the dashboard's poll of events.jsonl).
import { appendFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const model = opt('--model');
const task = opt('--tasks');
const k = Number(opt('--k'));
const dir = opt('--results-dir');
const runId = `fake-${process.pid}`;
mkdirSync(dir, { recursive: true });
const log = (event) =>
  appendFileSync(
    join(dir, 'events.jsonl'),
    `${JSON.stringify({ ts: new Date().toISOString(), run_id: runId, task, model, event })}\n`,
  );

process.on('SIGTERM', () => {
  if (model === 'stubborn') {
    process.stderr.write('SIGTERM ignored\n');
    return;
  }
  process.stderr.write('SIGTERM: stopping, removing containers...\n');
  process.exit(130);
});

process.stderr.write(
  `fake run ${runId}: ${model} on ${task}, k=${k}, base ${opt('--base-url') ?? 'none'}, skill ${opt('--skill-dir') ?? 'none'}\n`,
);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const turns = model === 'slow' || model === 'stubborn' ? 1000 : 3;
// As src/run/status-file.ts writes it: whole, by rename.
const statusFile = opt('--status-file');
const started = Date.now();
const status = (done, trial, turn, finished = false) => {
  if (statusFile === undefined) return;
  const place = `task 1/1 ${task} · trial ${trial + 1}/${k} · turn ${turn}/${turns}`;
  const body = {
    line: `${finished ? 'preparing' : place} · ${done}/${k} trials · fake elapsed`,
    running: finished
      ? []
      : [{ taskNo: 1, tasks: 1, taskId: task, trial: trial + 1, k, turn, maxTurns: turns }],
    done,
    total: k,
    elapsed_ms: Date.now() - started,
    left_ms: null,
    finished,
  };
  writeFileSync(`${statusFile}.tmp`, JSON.stringify(body));
  renameSync(`${statusFile}.tmp`, statusFile);
};
for (let trial = 0; trial < k; trial++) {
  log({ type: 'trial_start', trial });
  for (let turn = 1; turn <= turns; turn++) {
    status(trial, trial, turn);
    if (model !== 'burst') await sleep(150);
    log({
      type: 'model_reply',
      trial,
      turn,
      text: `thinking about step ${turn}`,
      tool_calls: 1,
      latency_ms: 100,
      retries: 0,
    });
    log({
      type: 'tool_call',
      trial,
      turn,
      name: 'execute_command',
      arg: `echo step-${turn}`,
      exit_code: 0,
      invalid: null,
      source: 'native',
    });
    // The real CLI's plain progress line for the same event (the dashboard drops it: shown once).
    process.stderr.write(
      `[task 1/1 ${task} · trial ${trial + 1}/${k} · turn ${turn}/${turns}] execute_command echo step-${turn} -> exit 0\n`,
    );
  }
  log({ type: 'trial_end', trial, status: 'passed', passed: true, score: 1, turns });
}
status(k, k - 1, turns, true);
process.stdout.write('fake summary: done\n');
