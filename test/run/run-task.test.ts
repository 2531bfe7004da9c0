/**
 * The runner around the trials, over a scripted OpenAI-compatible server that fails: a server that
 * dies, a context overflow, a tool call the server cannot parse, oversize replies, a results file
 * that cannot be written. The sandbox is in memory (test/helpers/memory-sandbox.ts): no Docker.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import type { ResultFile, RunSettings } from '../../src/results/result-file.js';
import { parseResultFile, writeResultFile } from '../../src/results/store.js';
import { RunStoppedError } from '../../src/run/run-stopped.js';
import type { TaskRunOptions } from '../../src/run/run-task.js';
import { InfraError } from '../../src/util/errors.js';
import { memoryEnvironment, SAY_DONE } from '../helpers/memory-run.js';
import { memorySandbox } from '../helpers/memory-sandbox.js';
import { runSettings } from '../helpers/run-settings.js';
import { type Script, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { runInMemory } from './task-runs.js';

const MODEL = 'flaky-model';
const ENVIRONMENT = memoryEnvironment(MODEL);
const OVERFLOW = {
  status: 400,
  errorBody: {
    error: {
      code: 400,
      message: 'request (17034 tokens) exceeds the available context size (16384 tokens), try increasing it',
      type: 'exceed_context_size_error',
      n_prompt_tokens: 17034,
      n_ctx: 16384,
    },
  },
} as const;

let dir: string;
let server: ScriptedServer | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-task-'));
});
afterEach(async () => {
  await server?.close();
  server = null;
  await rm(dir, { recursive: true, force: true });
});

async function run(
  script: Script,
  extra: {
    settings?: Partial<RunSettings>;
    maxReplyBytes?: number;
    /** The name the server scripts (default MODEL): any other makes every request a 404. */
    serveAs?: string;
  } & Partial<Omit<TaskRunOptions, 'settings' | 'signal'>> = {},
) {
  const { settings, maxReplyBytes, serveAs, ...overrides } = extra;
  server = await startScriptedServer({ scripts: { [serveAs ?? MODEL]: script } });
  const sandbox = memorySandbox();
  const baseUrl = server.baseUrl;
  const options: Omit<TaskRunOptions, 'signal'> = {
    runId: 'run-1',
    task: SAY_DONE,
    taskVersion: 'v1',
    modelName: MODEL,
    makeModel: () =>
      createOpenAICompatibleModel({
        baseUrl,
        model: MODEL,
        sampling: { temperature: 0 },
        requestTimeoutMs: 5000,
        maxRetries: 2,
        retryBaseMs: 5,
        env: {},
        ...(maxReplyBytes === undefined ? {} : { maxReplyBytes }),
      }),
    openSandbox: async () => sandbox,
    settings: runSettings({ k: 2, ...settings }),
    resultsDir: dir,
    environment: ENVIRONMENT,
    ...overrides,
  };
  const outcome = runInMemory({ tasks: [SAY_DONE], parallel: 1, options: () => options }).then(([result]) => {
    if (result === undefined) throw new Error('no result');
    return { result, path: join(dir, `say_done_v1__${MODEL}__run-1.json`) };
  });
  return { outcome, sandbox, requests: () => server?.requests ?? [] };
}

/** The one results file in the folder, as every reader parses it. */
async function onDisk(): Promise<ResultFile> {
  const path = join(dir, `say_done_v1__${MODEL}__run-1.json`);
  const parsed = parseResultFile(await readFile(path, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.result;
}

describe('a model server that fails mid-run', () => {
  it('dies: the trial in flight is an error trial, what ran is kept, the run stops with one line (exit 3)', async () => {
    const { outcome, requests } = await run(
      (_body, index) => {
        if (index === 0) return { text: 'done' };
        // The server goes away: this reply is cut and every retry is refused.
        void server?.close();
        return { drop: 'before-headers' };
      },
      { settings: { k: 3 } },
    );
    const err = await outcome.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunStoppedError);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as RunStoppedError).exitCode).toBe(3);
    const message = (err as Error).message;
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toMatch(
      /^run stopped: unreachable: model request to .* failed after 2 retries: connection failed: ECONNREFUSED \(say_done_v1, trial 2 of 3; results so far in .*\.json\)$/,
    );

    const file = await onDisk();
    expect(file.status).toBe('error');
    expect(file.trials.map((t) => t.status)).toEqual(['passed', 'error']);
    const [passed, errored] = file.trials;
    expect(passed?.passed).toBe(true);
    expect(errored).toMatchObject({
      score: 0,
      flags: {},
      error: { kind: 'unreachable' },
      malformed_replies: 0,
    });
    expect(errored?.failure_reason).toMatch(/^unreachable: /);
    // The failed request is on the record, with its retries, and is no malformed reply.
    expect(errored?.turn_logs[0]).toMatchObject({
      malformed: null,
      request_error: expect.stringMatching(/ECONNREFUSED/),
    });
    // The reply cut off, then the closed port.
    expect(errored?.turn_logs[0]?.retries.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^connection failed/),
      'connection failed: ECONNREFUSED',
    ]);
    // Not scored, not comparable: the measured trial alone makes the numbers.
    expect(file).toMatchObject({ trials_run: 1, score: 1, pass_all_k: false, comparable: false });
    expect(file.non_comparable_reasons).toEqual(['1 of 3 trials not measured (unreachable)']);
    expect(requests()).toHaveLength(2); // trial 3 never asked
    expect((err as RunStoppedError).results.map((r) => r.status)).toEqual(['error']);
  });

  it('loses the model (404): an error trial, and the run stops', async () => {
    // The server answers only for another name: every request of this model is a 404.
    const { outcome } = await run([], { serveAs: 'another-model' });
    await expect(outcome).rejects.toThrow(
      /^run stopped: model_not_found: .*HTTP 404: model 'flaky-model' not found/,
    );
    const file = await onDisk();
    expect(file.trials.map((t) => t.error?.kind)).toEqual(['model_not_found']);
    expect(file.status).toBe('error');
  });
});

describe('a context overflow', () => {
  it('is an error trial with the numbers, not scored; the task goes on, and early stop ignores it', async () => {
    const { outcome } = await run([OVERFLOW, { text: 'done' }, { text: 'done' }], {
      settings: { k: 3, early_stop: true },
    });
    const { result } = await outcome;
    expect(result.status).toBe('complete');
    expect(result.trials.map((t) => t.status)).toEqual(['error', 'passed', 'passed']);
    const overflow = result.trials[0];
    expect(overflow?.error).toEqual({ kind: 'context_overflow', prompt_tokens: 17034, context_size: 16384 });
    expect(overflow?.failure_reason).toMatch(
      /^context_overflow: .*context overflow: a prompt of 17034 tokens for a context of 16384/,
    );
    expect(overflow?.malformed_replies).toBe(0);
    expect(result).toMatchObject({
      trials_run: 2,
      score: 1,
      pass_all_k: false,
      pass_hat_k: null,
      comparable: false,
    });
    expect(result.non_comparable_reasons).toEqual(['1 of 3 trials not measured (context_overflow)']);
    expect(result.skills.said_done?.reach_rate).toBe(1);
    expect((await onDisk()).trials).toEqual(result.trials);
  });

  it('twice in a row ends the task as error, without stopping the run', async () => {
    const { outcome } = await run([OVERFLOW, OVERFLOW, { text: 'done' }], { settings: { k: 3 } });
    const { result } = await outcome;
    expect(result.status).toBe('error');
    expect(result.trials.map((t) => t.status)).toEqual(['error', 'error']);
  });
});

describe("the model's own faults", () => {
  it('a tool call the server cannot parse is a malformed reply (raw output kept, no retry); a retried 503 is not', async () => {
    const output = '<tool_call>{"name": "read_file", "arguments": {"path": </tool_call>';
    const { outcome, requests } = await run(
      [
        { status: 503, error: 'Loading model' },
        { status: 500, error: `Failed to parse input at pos 0: ${output}` },
        { text: 'done' },
      ],
      { settings: { k: 1 } },
    );
    const trial = (await outcome).result.trials[0];
    expect(trial?.status).toBe('passed');
    expect(trial?.malformed_replies).toBe(1);
    expect(trial?.turn_logs[0]).toMatchObject({
      assistant_text: output,
      malformed: expect.stringMatching(/could not parse the model's output/),
      retries: [{ attempt: 1, reason: 'HTTP 503: Loading model' }],
    });
    expect(trial?.turn_logs[0]?.request_error).toBeUndefined();
    // 503 (retried), the parse failure (once), then the reply to the nudge.
    expect(requests()).toHaveLength(3);
    expect(String(requests()[2]?.body.messages.at(-1)?.content)).toContain('could not be parsed');
  });

  it('an oversize reply is cut off unread as a malformed reply; a large one is kept, capped, in the log', async () => {
    const content = 'x'.repeat(200 * 1024);
    const { outcome, sandbox } = await run(
      [
        { text: 'y'.repeat(600 * 1024) },
        {
          text: `${'thinking '.repeat(20_000)}`,
          calls: [{ name: 'write_file', arguments: { path: 'big.txt', content } }],
        },
        { text: 'done' },
      ],
      { settings: { k: 1 }, maxReplyBytes: 512 * 1024 },
    );
    const { result, path } = await outcome;
    const [cut, big] = result.trials[0]?.turn_logs ?? [];
    expect(cut).toMatchObject({
      malformed: 'the reply was larger than 524288 bytes and was cut off unread',
      assistant_text: '',
    });
    expect(result.trials[0]?.malformed_replies).toBe(1);
    // The write ran with all of its content; the log keeps head and tail and says it cut.
    expect(sandbox.text('/workspace/big.txt')).toBe(content);
    const call = big?.tool_calls[0];
    expect(call?.arguments_truncated).toBe(true);
    expect(call?.raw_arguments.length).toBeLessThan(70 * 1024);
    expect(String(call?.arguments?.content)).toMatch(/characters cut from the middle/);
    expect(call?.arguments?.path).toBe('big.txt');
    expect(big?.text_truncated).toBe(true);
    expect(big?.assistant_text.length).toBeLessThan(70 * 1024);
    expect(result.trials[0]?.status).toBe('passed');
    expect((await stat(path)).size).toBeLessThan(400 * 1024);
  });
});

describe('writing the results file', () => {
  it('a write that fails marks the file error, keeps what was written before, and stops the run', async () => {
    let writes = 0;
    const writeResult = async (d: string, r: ResultFile): Promise<string> => {
      writes++;
      // The first save and trial 1's go through; trial 2's fails (as a record too large to serialize would).
      if (writes === 3) throw new RangeError('Invalid string length');
      return writeResultFile(d, r);
    };
    const { outcome } = await run([{ text: 'done' }, { text: 'done' }], { writeResult });
    const err = await outcome.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunStoppedError);
    expect((err as Error).message).toMatch(
      /^say_done_v1: the results file could not be written: Invalid string length \(what was recorded is in .*\.json\)$/,
    );
    const file = await onDisk();
    expect(file.status).toBe('error');
    expect(file.error).toBe('the results file could not be written: Invalid string length');
    expect(file.trials).toHaveLength(2);
    expect(file.trials[0]?.turn_logs).toHaveLength(1);
    // The trial that could not be written keeps its verdict, not its turn logs.
    expect(file.trials[1]).toMatchObject({ status: 'passed', turn_logs: [] });
  });
});

describe('a sandbox that fails under the checks', () => {
  it('makes an error trial that keeps the turns, never a flag the model missed; the next trial gets a fresh sandbox', async () => {
    let checks = 0;
    const task = {
      ...SAY_DONE,
      flags: [
        {
          ...SAY_DONE.flags[0],
          // The first judging finds the container gone; the second judges normally.
          check: (ctx: Parameters<(typeof SAY_DONE.flags)[0]['check']>[0]) => {
            checks++;
            if (checks === 1) throw new InfraError('container is gone');
            return SAY_DONE.flags[0]?.check(ctx) ?? { reached: false };
          },
        },
      ],
    } as typeof SAY_DONE;
    let opened = 0;
    const { outcome } = await run([{ text: 'done' }, { text: 'done' }], {
      task,
      openSandbox: async () => {
        opened++;
        return memorySandbox();
      },
    });
    const { result } = await outcome;
    expect(result.trials.map((t) => t.status)).toEqual(['error', 'passed']);
    const [errored] = result.trials;
    expect(errored).toMatchObject({ flags: {}, score: 0, error: { kind: 'harness' }, turns: 1 });
    expect(errored?.failure_reason).toBe('harness_error: judging failed: container is gone');
    expect(errored?.turn_logs[0]?.assistant_text).toBe('done');
    expect(result).toMatchObject({ trials_run: 1, comparable: false });
    expect(opened).toBe(2);
  });
});
