/**
 * Bad things during a run: a container that dies, a model that replies garbage or too much, a model
 * server that fails or dies, a conversation that outgrows the server's context. Each gets a clear
 * record, loses nothing already recorded, and a failing server is never scored as a failing model.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTask } from '../../src/catalogue/built-in.js';
import { selectTasks } from '../../src/cli/select-tasks.js';
import { runLadder } from '../../src/ladder/run-ladder.js';
import { shellQuote } from '../../src/ladder/server-command.js';
import { readResultFiles } from '../../src/results/store.js';
import { RunStoppedError } from '../../src/run/run-stopped.js';
import { FOLDER_INSTANCE } from '../../src/run/trial-instances.js';
import { gguf, writeGguf } from '../helpers/gguf-writer.js';
import { runSettings } from '../helpers/run-settings.js';
import { type ScriptedReply, turnsToReplies } from '../helpers/scripted-server.js';
import { FAKE_SERVER } from '../ladder/fake-server.js';
import { benchWithScript, only } from './bench-harness.js';

const task = getTask('debug_python_v1');
if (task === undefined) throw new Error('debug_python_v1 missing');
const oracle = turnsToReplies(task.referenceSolution);
const exec = (command: string): ScriptedReply => ({
  calls: [{ name: 'execute_command', arguments: { command } }],
});

/** Removes this test process's sandbox containers, as a crashing engine or an OOM kill would. */
function killOurContainers(): void {
  const ids = execFileSync('docker', ['ps', '-q', '--filter', `label=agent-bench.pid=${process.pid}`], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((id) => id !== '');
  if (ids.length > 0) execFileSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore' });
}

describe.sequential('robustness', () => {
  it('a container that dies mid-trial becomes an error trial; the next trial gets a fresh container', async () => {
    // Trial 0 passes; trial 1's container is killed before its second command runs (which ends that
    // trial: no further reply of it is requested); trial 2 passes again.
    const trial1: ScriptedReply[] = [exec('true'), exec('true')];
    const replies = [...oracle, ...trial1, ...oracle];
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      settings: { k: 3 },
      script: (_body, index) => {
        if (index === oracle.length + 1) killOurContainers();
        return replies[index] ?? { text: 'done' };
      },
    });
    const result = only(run);
    expect(result.trials.map((t) => t.status)).toEqual(['passed', 'error', 'passed']);
    expect(result.trials[1]?.failure_reason).toMatch(/^harness_error: /);
    expect(result.trials[1]?.failure_reason?.split('\n')).toHaveLength(1);
    expect(result.status).toBe('complete');
    expect(result.pass_all_k).toBe(false);
  });

  it('a garbage reply is logged as malformed and the loop goes on', async () => {
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: [{ body: 'this is not json' }, ...oracle],
      }),
    );
    const trial = result.trials[0];
    expect(trial?.turn_logs[0]?.malformed).toBeTruthy();
    expect(trial?.malformed_replies).toBe(1);
    expect(trial?.passed).toBe(true);
  });

  it('a broken text-format tool call is logged as malformed, the model is told, and it can resend', async () => {
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      script: [{ text: '<tool_call>{"name": "read_file", "arguments": {"path": </tool_call>' }, ...oracle],
    });
    const trial = only(run).trials[0];
    expect(trial?.turn_logs[0]?.malformed).toBeTruthy();
    const nudge = run.requests[1]?.body.messages.at(-1);
    expect(nudge?.role).toBe('user');
    expect(String(nudge?.content)).toContain('could not be parsed');
    expect(trial?.passed).toBe(true);
  });

  it('a model server that fails mid-run: an error trial, never scored, the run stops (exit 3), the file says error', async () => {
    // Trial 0 passes; in trial 1 the server answers twice, then fails (HTTP 500, no retries here).
    const failing: ScriptedReply[] = [...oracle.slice(0, 2), { status: 500, error: 'model crashed' }];
    const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-results-'));
    const err = await benchWithScript({
      tasks: 'debug_python_v1',
      settings: { k: 3 },
      resultsDir,
      script: [...oracle, ...failing],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunStoppedError);
    expect((err as RunStoppedError).exitCode).toBe(3);
    expect((err as Error).message).toMatch(
      /^run stopped: server_error: .*HTTP 500: model crashed \(debug_python_v1, trial 2 of 3; /,
    );
    expect((err as Error).message).not.toContain('\n');

    const files = (await readResultFiles(resultsDir)).results.map((f) => f.result);
    expect(files).toHaveLength(1);
    const result = files[0];
    expect(result?.status).toBe('error');
    expect(result?.trials.map((t) => t.status)).toEqual(['passed', 'error']);
    const trial = result?.trials[1];
    // What it did before the server failed is kept for the record; nothing of it is judged.
    expect(trial?.turn_logs).toHaveLength(3);
    expect(trial?.turn_logs[2]?.request_error).toMatch(/HTTP 500: model crashed/);
    expect(trial).toMatchObject({
      flags: {},
      score: 0,
      malformed_replies: 0,
      error: { kind: 'server_error' },
    });
    expect(result).toMatchObject({ trials_run: 1, score: 1, comparable: false });
  });

  it('a conversation that outgrows the context is an error trial with the numbers; the next trial runs', async () => {
    const overflow: ScriptedReply = {
      status: 400,
      errorBody: {
        error: {
          code: 400,
          message:
            'request (16500 tokens) exceeds the available context size (16384 tokens), try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 16500,
          n_ctx: 16384,
        },
      },
    };
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        settings: { k: 2 },
        script: [...oracle.slice(0, 2), overflow, ...oracle],
      }),
    );
    expect(result.status).toBe('complete');
    expect(result.trials.map((t) => t.status)).toEqual(['error', 'passed']);
    expect(result.trials[0]?.error).toEqual({
      kind: 'context_overflow',
      prompt_tokens: 16500,
      context_size: 16384,
    });
    expect(result.non_comparable_reasons).toEqual(['1 of 2 trials not measured (context_overflow)']);
    expect(result.pass_all_k).toBe(false);
  });

  it("a reply past the wire cap is the model's malformed reply, not a crash, and the results stay small", async () => {
    // 9 MB of text (over the 8 MiB default cap) on the first turn of each of two trials.
    const huge: ScriptedReply = { text: 'z'.repeat(9 * 1024 * 1024) };
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      settings: { k: 2 },
      script: [huge, ...oracle, huge, ...oracle],
    });
    const result = only(run);
    expect(result.status).toBe('complete');
    for (const trial of result.trials) {
      expect(trial.turn_logs[0]?.malformed).toMatch(/larger than 8388608 bytes/);
      expect(trial.malformed_replies).toBe(1);
      expect(trial.status).toBe('passed');
    }
    const [file] = (await readResultFiles(run.resultsDir)).results;
    expect((await stat(file?.path ?? '')).size).toBeLessThan(1024 * 1024);
  });

  it('a ladder rung whose server dies mid-run is not measured, and no verdict is built on it', async () => {
    const models = await mkdtemp(join(tmpdir(), 'agent-bench-gguf-'));
    for (const [i, name] of ['dies-1b-Q4_K_M.gguf', 'solves-4b-Q4_K_M.gguf'].entries()) {
      await writeGguf(join(models, name), { kv: [['general.architecture', gguf.str('llama')]] });
      await appendFile(join(models, name), Buffer.alloc(1000 * (i + 1)));
    }
    const replies = join(models, 'replies.json');
    await writeFile(
      replies,
      JSON.stringify({ 'dies-1b-Q4_K_M.gguf': oracle, 'solves-4b-Q4_K_M.gguf': oracle }),
    );
    const flags = `--replies ${shellQuote(replies)}`;
    // The smaller model's server crashes at its third chat request: it would have passed.
    const serverCmd = [
      'case {model} in',
      `  *dies*) exec ${FAKE_SERVER} -m {model} --port {port} ${flags} --die-after 2;;`,
      `  *) exec ${FAKE_SERVER} -m {model} --port {port} ${flags};;`,
      'esac',
    ].join('\n');
    let out = '';
    const sink = { write: (text: string) => (out += text), isTTY: false };
    const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-ladder-'));
    const outcome = await runLadder({
      tasks: selectTasks('debug_python_v1'),
      suite: 'debug_python_v1',
      source: { kind: 'gguf-dir', dir: models },
      serverCmd,
      settings: runSettings(),
      resultsDir,
      resume: false,
      exhaustive: false,
      request: {
        apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
        sampling: { temperature: 0 },
        requestTimeoutMs: 30_000,
        retries: 1,
      },
      stdout: sink,
      stderr: sink,
      handleSignals: false,
      // The scripted replies solve the task folder's own instance of debug_python_v1.
      variants: { seed: 1, replay: FOLDER_INSTANCE },
    });
    expect(outcome.rungs.map((r) => [r.model.label, r.status])).toEqual([
      ['dies-1b-Q4_K_M', 'error'],
      ['solves-4b-Q4_K_M', 'passed'],
    ]);
    expect(outcome.rungs[0]?.error).toMatch(
      /the model server exited .* during the run .*; run stopped: unreachable: /,
    );
    expect(outcome.verdict).toMatch(
      /^no verdict on debug_python_v1 at pass\^k \(k=1\): dies-1b-Q4_K_M not measured; /,
    );
    expect(out).toMatch(/dies-1b-Q4_K_M .*ERROR none measured\s+-\s+not measured/);
    // Its results file is kept, marked error, with the trial the server broke off as an error trial.
    const dies = (await readResultFiles(resultsDir)).results.find((f) => f.result.model.startsWith('dies'));
    expect(dies?.result.status).toBe('error');
    expect(dies?.result.trials.map((t) => [t.status, t.error?.kind, t.turns])).toEqual([
      ['error', 'unreachable', 3],
    ]);
  });
});
