/**
 * The ladder end to end: scripted models of different sizes over HTTP -> the real bench (openai
 * client, agent loop, Docker sandbox, scoring) on each rung -> results files, the ladder summary and
 * the verdict. Then a GGUF ladder whose rungs are served by spawned (fake) llama-servers.
 */
import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getTask } from '../../src/catalogue/built-in.js';
import { selectTasks } from '../../src/cli/select-tasks.js';
import { type LadderOptions, runLadder } from '../../src/ladder/run-ladder.js';
import { shellQuote } from '../../src/ladder/server-command.js';
import type { LadderSummary } from '../../src/ladder/summary-file.js';
import { readResultFiles } from '../../src/results/store.js';
import { FOLDER_INSTANCE } from '../../src/run/trial-instances.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/util/errors.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { runSettings } from '../helpers/run-settings.js';
import { type ScriptedServer, startScriptedServer, turnsToReplies } from '../helpers/scripted-server.js';
import { fakeServerCmd, gone, loggedPid } from '../ladder/fake-server.js';

const task = getTask('debug_python_v1');
if (task === undefined) throw new Error('debug_python_v1 missing');
const solves = turnsToReplies(task.referenceSolution);

async function ladderOptions(source: LadderOptions['source'], extra: Partial<LadderOptions> = {}) {
  let out = '';
  const sink = { write: (s: string) => (out += s), isTTY: false };
  const options: LadderOptions = {
    tasks: selectTasks('debug_python_v1'),
    suite: 'debug_python_v1',
    source,
    settings: runSettings(),
    resultsDir: await mkdtemp(join(tmpdir(), 'agent-bench-ladder-')),
    resume: false,
    exhaustive: false,
    request: {
      apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
      sampling: { temperature: 0 },
      requestTimeoutMs: 30_000,
      retries: 0,
    },
    stdout: sink,
    stderr: sink,
    handleSignals: false,
    // The scripted replies solve the task folder's own instance of debug_python_v1.
    variants: { seed: 1, replay: FOLDER_INSTANCE },
    ...extra,
  };
  return { options, output: () => out };
}

async function withModels(run: (server: ScriptedServer) => Promise<void>): Promise<void> {
  const server = await startScriptedServer({
    scripts: {
      'tiny-0.5b-q4_K_M': [{ text: 'I give up: this is beyond me.' }],
      'small-3b-q4_K_M': solves,
      'big-14b-q8_0': solves,
    },
  });
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

const MODELS = ['big-14b-q8_0', 'small-3b-q4_K_M', 'tiny-0.5b-q4_K_M'];

// A first build of the sandbox image takes minutes: under the hook timeout, not a test's.
beforeAll(async () => {
  await ensureImage();
});

describe.sequential('agent-bench ladder through the real bench', () => {
  it('climbs from the smallest model and stops at the first that passes', async () => {
    await withModels(async (server) => {
      const { options, output } = await ladderOptions({
        kind: 'server',
        baseUrl: server.baseUrl,
        models: MODELS,
      });
      const outcome = await runLadder(options);

      expect(outcome.rungs.map((r) => [r.model.id, r.status])).toEqual([
        ['tiny-0.5b-q4_K_M', 'failed'],
        ['small-3b-q4_K_M', 'passed'],
        ['big-14b-q8_0', 'not_run'],
      ]);
      // The larger model was never asked anything.
      expect(new Set(server.requests.map((r) => r.model))).toEqual(
        new Set(['tiny-0.5b-q4_K_M', 'small-3b-q4_K_M']),
      );
      expect(outcome.verdict).toBe('debug_python_v1 needs at least Q4_K_M of small-3b: 3B total, ~1.7 GiB');
      expect(output()).toContain(outcome.verdict);

      // The rungs' runs are ordinary results files, and the ladder summary points at them.
      const files = (await readResultFiles(options.resultsDir)).results;
      expect(files.map((f) => [f.result.model, f.result.pass_all_k]).sort()).toEqual([
        ['small-3b-q4_K_M', true],
        ['tiny-0.5b-q4_K_M', false],
      ]);
      const summary = JSON.parse(await readFile(outcome.summaryPath, 'utf8')) as LadderSummary;
      expect(summary.passing).toEqual(['small-3b-q4_K_M']);
      const small = files.find((f) => f.result.model === 'small-3b-q4_K_M')?.result;
      expect(summary.rungs[1]?.tasks.debug_python_v1?.run_id).toBe(small?.run_id);
    });
  });

  it('--exhaustive runs every model and marks each that passes', async () => {
    await withModels(async (server) => {
      const { options, output } = await ladderOptions(
        { kind: 'server', baseUrl: server.baseUrl, models: MODELS },
        { exhaustive: true },
      );
      const outcome = await runLadder(options);
      expect(outcome.rungs.map((r) => r.status)).toEqual(['failed', 'passed', 'passed']);
      expect(server.requests.some((r) => r.model === 'big-14b-q8_0')).toBe(true);
      expect(outcome.verdict).toMatch(/needs at least Q4_K_M of small-3b/);
      expect(output()).toMatch(/small-3b-q4_K_M .*PASSES \(smallest\)/);
      expect(output()).toMatch(/big-14b-q8_0 .*PASSES/);
    });
  });

  it('a rung whose model never answers while its server does is a failed rung, and the climb goes on', async () => {
    const server = await startScriptedServer({
      scripts: {
        // Held far past the request timeout: the server still lists its models meanwhile.
        'tiny-0.5b-q4_K_M': [{ text: 'too late', delayMs: 30 * 60_000 }],
        'small-3b-q4_K_M': solves,
      },
    });
    try {
      const { options } = await ladderOptions(
        { kind: 'server', baseUrl: server.baseUrl, models: ['small-3b-q4_K_M', 'tiny-0.5b-q4_K_M'] },
        {
          request: {
            apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
            sampling: { temperature: 0 },
            requestTimeoutMs: 3000,
            retries: 0,
          },
        },
      );
      const outcome = await runLadder(options);
      expect(outcome.rungs.map((r) => [r.model.id, r.status, r.error])).toEqual([
        ['tiny-0.5b-q4_K_M', 'failed', null],
        ['small-3b-q4_K_M', 'passed', null],
      ]);
      expect(outcome.rungs[0]?.results[0]?.trials[0]?.end_reason).toBe('request_timeout');
    } finally {
      await server.close();
    }
  });

  it('an interruption stops the run in flight: its results file says interrupted, and the climb ends', async () => {
    const server = await startScriptedServer({
      scripts: { 'slow-1b-q4_K_M': [{ text: 'thinking...', delayMs: 60_000 }], 'big-14b-q8_0': solves },
    });
    try {
      const abort = new AbortController();
      const { options } = await ladderOptions(
        { kind: 'server', baseUrl: server.baseUrl, models: ['slow-1b-q4_K_M', 'big-14b-q8_0'] },
        { signal: abort.signal },
      );
      const timer = setInterval(() => {
        if (server.requests.length > 0) abort.abort(new InterruptedError('SIGINT'));
      }, 100);
      const started = Date.now();
      await expect(runLadder(options)).rejects.toBeInstanceOf(InterruptedError);
      clearInterval(timer);
      expect(Date.now() - started).toBeLessThan(30_000);
      const files = (await readResultFiles(options.resultsDir)).results;
      expect(files.map((f) => [f.result.model, f.result.status])).toEqual([
        ['slow-1b-q4_K_M', 'interrupted'],
      ]);
      expect(server.requests.every((r) => r.model === 'slow-1b-q4_K_M')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it('a GGUF ladder with --server-cmd runs each file on its own spawned server', async () => {
    const models = await mkdtemp(join(tmpdir(), 'agent-bench-gguf-'));
    for (const [i, name] of ['gives-up-1b-Q4_K_M.gguf', 'solves-4b-Q4_K_M.gguf'].entries()) {
      await writeGguf(join(models, name), { kv: [['general.architecture', gguf.str('llama')]] });
      await appendFile(join(models, name), Buffer.alloc(1000 * (i + 1)));
    }
    const replies = join(models, 'replies.json');
    await writeFile(replies, JSON.stringify({ 'solves-4b-Q4_K_M.gguf': solves }));
    const { options } = await ladderOptions(
      { kind: 'gguf-dir', dir: models },
      { serverCmd: fakeServerCmd(`--replies ${shellQuote(replies)}`) },
    );
    const outcome = await runLadder(options);
    expect(outcome.rungs.map((r) => [r.model.label, r.status])).toEqual([
      ['gives-up-1b-Q4_K_M', 'failed'],
      ['solves-4b-Q4_K_M', 'passed'],
    ]);
    expect(outcome.verdict).toMatch(
      /^debug_python_v1 needs at least Q4_K_M of solves-4b: 4B total, \d+ KiB, server peak [\d.]+ [KMG]iB$/,
    );
    const files = (await readResultFiles(options.resultsDir)).results;
    expect(files.map((f) => f.result.model).sort()).toEqual([
      'gives-up-1b-Q4_K_M.gguf',
      'solves-4b-Q4_K_M.gguf',
    ]);
    expect(files.every((f) => f.result.environment.base_url?.startsWith('http://127.0.0.1:'))).toBe(true);
    for (const rung of outcome.rungs)
      expect(gone(loggedPid(await readFile(rung.serverLog ?? '', 'utf8')))).toBe(true);
  });
});
