/**
 * Servers that fail are not models that fail, against a real llama-server: one started with a context
 * too small for the prompt (HTTP 400 exceed_context_size_error), and one killed in the middle of a run.
 * Each is an `error` trial that is never scored, the run exits 3 saying why, and what was recorded
 * before is kept. Skipped, saying why, when the llama-server build or the tiny models are absent.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { readResultFiles } from '../../src/results/store.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { agentBench } from '../helpers/llama-cli.js';
import { findLlamaKit, type LlamaKit, skipWithoutLlama } from '../helpers/llama-kit.js';
import { BASE_FLAGS, type LlamaServer, startLlamaServer } from '../helpers/llama-process.js';

const kit = await findLlamaKit();
const skip = skipWithoutLlama(kit, 'server faults');

/** The trials whose `trial_start` the run has logged so far (0 before events.jsonl exists). */
async function trialsStarted(resultsDir: string): Promise<number> {
  const events = await readFile(join(resultsDir, 'events.jsonl'), 'utf8').catch(() => '');
  return events.split('\n').filter((line) => line.includes('"type":"trial_start"')).length;
}

describe.skipIf(skip)('a real llama-server that fails', () => {
  const k = kit as LlamaKit;

  beforeAll(async () => {
    await ensureImage();
  });

  it('started with a small -c: every trial is a context_overflow error with the numbers, and the run exits 3', async () => {
    const server = await startLlamaServer(k, k.models.Q4_K_M, [...BASE_FLAGS, '-c', '512', '-np', '1']);
    try {
      const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-llama-results-'));
      const run = await agentBench([
        'run',
        '--base-url',
        server.baseUrl,
        '--tasks',
        'debug_python_v1',
        '--k',
        '2',
        '--retries',
        '0',
        '--results-dir',
        resultsDir,
      ]);
      expect(run.code).toBe(3);
      // Said before the run (the server's slot context), and as the reason it exits 3.
      expect(run.stderr).toContain('the server gives the model a context of 512 tokens');
      expect(run.stderr).toMatch(
        /could not be measured .*context_overflow: .*a prompt of \d+ tokens for a context of 512/,
      );
      const [file] = (await readResultFiles(resultsDir)).results.map((f) => f.result);
      expect(file?.trials.map((t) => t.status)).toEqual(['error', 'error']);
      for (const trial of file?.trials ?? []) {
        expect(trial.error?.kind).toBe('context_overflow');
        const error = trial.error as { prompt_tokens?: number; context_size?: number };
        expect(error.context_size).toBe(512);
        expect(error.prompt_tokens).toBeGreaterThan(512);
        // Never scored, never the model's malformed reply: the server's answer is in the turn log.
        expect(trial).toMatchObject({ flags: {}, score: 0, malformed_replies: 0, turns: 1 });
        expect(trial.turn_logs[0]?.request_error).toMatch(
          /HTTP 400: request \(\d+ tokens\) exceeds the available context size \(512 tokens\)/,
        );
      }
      expect(file?.comparable).toBe(false);
      expect(file?.non_comparable_reasons).toContain('2 of 2 trials not measured (context_overflow)');
    } finally {
      await server.stop();
    }
  });

  it('a context the prompt fits but the reply fills: a context_overflow error, not a malformed reply', async () => {
    const run = async (server: LlamaServer, turns: number) => {
      const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-llama-results-'));
      const done = await agentBench(
        [
          'run',
          '--base-url',
          server.baseUrl,
          '--tasks',
          'debug_python_v1',
          '--max-turns',
          String(turns),
        ].concat(['--retries', '0', '--results-dir', resultsDir]),
      );
      const [file] = (await readResultFiles(resultsDir)).results.map((f) => f.result);
      return { done, trial: file?.trials[0] };
    };
    // Each turn's prompt and reply sizes on a roomy server (the models answer the same every time)...
    const roomy = await startLlamaServer(k, k.models.Q4_K_M, [...BASE_FLAGS, '-c', '4096', '-np', '1']);
    let sizes: { prompt: number; reply: number }[];
    try {
      const { trial } = await run(roomy, 6);
      sizes = (trial?.turn_logs ?? []).map((t) => ({
        prompt: t.usage?.prompt_tokens ?? 0,
        reply: t.usage?.completion_tokens ?? 0,
      }));
    } finally {
      await roomy.stop();
    }
    // ...give a context (llama.cpp pads it to a multiple of 256) that some turn's prompt fits and its reply fills.
    const pick = [512, 768, 1024, 1280, 1536, 1792, 2048]
      .map((context) => ({ context, turn: sizes.findIndex((z) => z.prompt + z.reply > context) }))
      .find(({ context, turn }) => turn >= 0 && (sizes[turn]?.prompt ?? context) + 2 <= context);
    if (pick === undefined)
      throw new Error(`no context size lets a prompt fit and its reply fill it: ${JSON.stringify(sizes)}`);
    const tight = await startLlamaServer(k, k.models.Q4_K_M, [
      ...BASE_FLAGS,
      '-c',
      String(pick.context),
      '-np',
      '1',
    ]);
    try {
      const { done, trial } = await run(tight, pick.turn + 1);
      expect(done.code).toBe(3);
      expect(trial?.status).toBe('error');
      expect(trial?.error).toMatchObject({
        kind: 'context_overflow',
        prompt_tokens: sizes[pick.turn]?.prompt,
        context_size: pick.context,
      });
      // The turns before it were the model's; the cut reply is not counted against it.
      expect(trial).toMatchObject({ malformed_replies: 0, flags: {}, turns: pick.turn + 1 });
      expect(trial?.turn_logs.at(-1)?.request_error).toMatch(/the reply ran out of context/);
    } finally {
      await tight.stop();
    }
  });

  it('killed in the middle of a run: an error trial, the run stops with exit 3, the trial before is kept', async () => {
    const server = await startLlamaServer(k, k.models.Q4_K_M, [...BASE_FLAGS, '-c', '4096', '-np', '1']);
    try {
      const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-llama-results-'));
      const running = agentBench([
        'run',
        '--base-url',
        server.baseUrl,
        '--tasks',
        'debug_python_v1',
        '--k',
        '2',
        '--max-turns',
        '2',
        '--retries',
        '1',
        '--results-dir',
        resultsDir,
      ]);
      // Once the second trial has started (the first is over and recorded), the server dies.
      let finished = false;
      void running.finally(() => {
        finished = true;
      });
      while (!finished && (await trialsStarted(resultsDir)) < 2) await sleep(50);
      expect(finished).toBe(false);
      process.kill(server.pid, 'SIGKILL');
      expect(await server.exited).toBe('was killed by SIGKILL');

      const run = await running;
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /run stopped: unreachable: .*\(debug_python_v1, trial 2 of 2; results so far in /,
      );
      const [file] = (await readResultFiles(resultsDir)).results.map((f) => f.result);
      expect(file?.status).toBe('error');
      expect(file?.trials.map((t) => t.status)).toEqual(['failed', 'error']);
      // The first trial is the model's own failure, measured and kept as it was.
      expect(file?.trials[0]).toMatchObject({ failure_reason: 'ran out of turns (2)', turns: 2 });
      const broken = file?.trials[1];
      expect(broken?.error).toEqual({ kind: 'unreachable' });
      expect(broken).toMatchObject({ flags: {}, score: 0, malformed_replies: 0 });
      expect(broken?.turn_logs.at(-1)?.request_error).toMatch(/connection failed/);
    } finally {
      await server.stop();
    }
  });
});
