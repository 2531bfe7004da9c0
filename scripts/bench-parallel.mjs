#!/usr/bin/env node
// --parallel on model-bound work: the same trials (two tasks, 6 trials of 3 replies) at --parallel 1
// and 2, through runBench and real sandboxes, against a model server that takes 1 s per reply and
// serves requests at once (as llama-server -np 2 does). Prints the wall times side by side, their
// ratio (target: at most 0.6x on a 2-core machine), and each trial's own mean times, which running
// two at once must not inflate. Asserts nothing. Needs the build and a Docker engine:
// `npm run build && node scripts/bench-parallel.mjs`; scripts/bench.mjs runs it too.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const dist = (p) => new URL(`../dist/src/${p}`, import.meta.url).href;
const REPLY_MS = 1000;
const MODEL = 'slow-model';
const TARGET = 0.6;

const defaultRow = (label, ...cells) =>
  console.log(`${label.padEnd(34)}${cells.map((c) => c.padStart(16)).join('')}`);

/** Prints the figures; `row` is bench.mjs's table row. */
export async function parallelSpeedup(row = defaultRow) {
  const { runBench } = await import(dist('run/run-bench.js'));
  const { DEFAULT_COMMAND_TIMEOUT_SEC, DEFAULT_LIMITS } = await import(dist('run/settings.js'));
  const server = await slowServer();
  const figures = [];
  try {
    for (const parallel of [1, 2]) {
      const resultsDir = await mkdtemp(join(tmpdir(), 'bench-parallel-'));
      try {
        const settings = {
          k: 3,
          early_stop: false,
          max_turns: null,
          command_timeout_sec: DEFAULT_COMMAND_TIMEOUT_SEC,
          fresh_container: false,
          limits: DEFAULT_LIMITS,
          sampling: { temperature: 0 },
        };
        const quiet = { write: () => true, isTTY: false };
        const t0 = performance.now();
        const results = await runBench({
          tasks: [task('bench_parallel_a'), task('bench_parallel_b')],
          settings,
          resultsDir,
          resume: false,
          parallel,
          model: {
            model: MODEL,
            baseUrl: server.baseUrl,
            apiKeyEnv: 'AGENT_BENCH_BENCH_KEY',
            sampling: settings.sampling,
            requestTimeoutMs: 30_000,
            retries: 0,
          },
          stdout: quiet,
          stderr: quiet,
          handleSignals: false,
        });
        const wallMs = performance.now() - t0;
        const trials = results.flatMap((r) => r.trials);
        const passed = trials.filter((t) => t.passed).length;
        if (passed !== trials.length)
          throw new Error(`--parallel ${parallel}: ${passed}/${trials.length} trials passed`);
        const mean = (f) => trials.reduce((a, t) => a + f(t), 0) / trials.length;
        figures.push({
          parallel,
          wallMs,
          trials: trials.length,
          elapsedSec: mean((t) => t.elapsed_sec),
          harnessSec: mean((t) => t.harness_sec),
          latencyMs: mean(
            (t) => t.turn_logs.reduce((a, l) => a + l.model_latency_ms, 0) / t.turn_logs.length,
          ),
        });
      } finally {
        await rm(resultsDir, { recursive: true, force: true });
      }
    }
  } finally {
    await server.close();
  }
  const [one, two] = figures;
  const s = (sec) => `${sec.toFixed(2)} s`;
  console.log(
    `\n--parallel on model-bound work (${one.trials} trials of 3 replies, ${REPLY_MS} ms per reply, 2 tasks):`,
  );
  row('', '--parallel 1', '--parallel 2', 'ratio');
  const ratio = two.wallMs / one.wallMs;
  row('  wall time', s(one.wallMs / 1000), s(two.wallMs / 1000), `${ratio.toFixed(2)}x`);
  row(
    '  per trial: model+tools (mean)',
    s(one.elapsedSec),
    s(two.elapsedSec),
    `${(two.elapsedSec / one.elapsedSec).toFixed(2)}x`,
  );
  row(
    '  per trial: harness (mean)',
    s(one.harnessSec),
    s(two.harnessSec),
    `${(two.harnessSec / one.harnessSec).toFixed(2)}x`,
  );
  row(
    '  per reply: model latency (mean)',
    `${one.latencyMs.toFixed(0)} ms`,
    `${two.latencyMs.toFixed(0)} ms`,
    '',
  );
  console.log(`  target: wall ratio <= ${TARGET}x: ${ratio <= TARGET ? 'met' : 'NOT MET'}\n`);
  return figures;
}

/** Runs `true` twice, then says done; passed by a final answer that says done. */
function task(id) {
  return {
    id,
    meta: { domain: 'bench', difficulty: 'easy', description: 'model-bound', optimalSteps: 3 },
    prompt: 'Run `true` twice, then say done.',
    maxTurns: 10,
    allowedWrites: ['**'],
    ignored: [],
    files: [],
    flags: [
      {
        id: 'said_done',
        description: 'the final answer says done',
        kind: 'outcome',
        check: (ctx) =>
          ctx.finalAnswer?.includes('done') ? { reached: true, turn: null } : { reached: false },
      },
    ],
    referenceSolution: [],
  };
}

/**
 * An OpenAI-compatible server whose every reply takes REPLY_MS, requests served at once. Stateless:
 * the reply follows from the conversation (two commands, then the answer), so interleaved trials
 * each get their own script.
 */
async function slowServer() {
  const server = createServer(async (req, res) => {
    const send = (status, body) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && req.url === '/v1/models')
      return send(200, { object: 'list', data: [{ id: MODEL, object: 'model', owned_by: 'bench' }] });
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return send(404, { error: { message: 'no route' } });
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    const calls = body.messages.filter((m) => m.role === 'tool').length;
    await new Promise((r) => setTimeout(r, REPLY_MS));
    const message =
      calls < 2
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: `call_${calls}`,
                type: 'function',
                function: { name: 'execute_command', arguments: JSON.stringify({ command: 'true' }) },
              },
            ],
          }
        : { role: 'assistant', content: 'done' };
    send(200, {
      id: 'chatcmpl-bench',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: MODEL,
      choices: [{ index: 0, message, finish_reason: calls < 2 ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await parallelSpeedup();
