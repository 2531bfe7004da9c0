/**
 * Harbor tasks run with a model, through the built CLI and the real engine, offline: each fixture's
 * Dockerfile built on the sandbox image (--base-image), the agent in the sandbox with the task's
 * WORKDIR as its workspace, then tests/test.sh as the verifier and its reward as the score. The
 * oracle passes with 1; a model that does nothing fails with 0; a half solution of a partial-reward
 * task scores 0.5 and does not pass.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureImage } from '../../src/sandbox/index.js';
import { runHarborCli } from '../helpers/harbor-cli.js';
import { type ScriptedReply, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { FORGER } from './fixtures/harbor-hostile-code.js';

const FIXTURES = join(import.meta.dirname, '../tasks/fixtures/harbor');

let base = '';
let scratch = '';
let server: ScriptedServer;
/** partial-reward as the validate test builds it offline: its apt-get stage replaced, the rest as it is. */
let partial = '';

const HOSTILE = join(import.meta.dirname, 'fixtures/harbor-hostile');
/** Harbor tasks as published (#23): a BuildKit Dockerfile, a solution of several files. */
const PARITY = join(import.meta.dirname, 'fixtures');

const SCRIPTS: Record<string, ScriptedReply[]> = {
  forger: [
    { calls: [{ name: 'write_file', arguments: { path: 'fib.py', content: FORGER } }] },
    { text: 'done' },
  ],
  // test.sh greps fib.py first: a FIFO there holds it until its timeout.
  fifo: [
    { calls: [{ name: 'execute_command', arguments: { command: 'rm fib.py && mkfifo fib.py' } }] },
    { text: 'done' },
  ],
  idle: [{ text: 'I will not do anything.' }],
  // A model sending the oracle's very command gets the agent's shell, where /solution is out of reach.
  sneak: [
    { calls: [{ name: 'execute_command', arguments: { command: 'bash /solution/solve.sh' } }] },
    { text: 'done' },
  ],
  half: [
    // Where it works, as whom: the WORKDIR's files are there, and the agent is not root.
    { calls: [{ name: 'execute_command', arguments: { command: 'cat /work/start.txt && id -u && pwd' } }] },
    { calls: [{ name: 'write_file', arguments: { path: '/work/numbers.txt', content: '1\n2\n' } }] },
    { text: 'done' },
  ],
};

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-run-'));
  partial = join(scratch, 'partial-reward');
  cpSync(join(FIXTURES, 'partial-reward'), partial, { recursive: true });
  writeFileSync(
    join(partial, 'environment/Dockerfile'),
    'FROM python:3.12-slim\nCOPY start.txt /work/start.txt\nWORKDIR /work\n',
  );
  writeFileSync(join(partial, 'environment/start.txt'), 'count to four\n');
  // Harbor's default allows internet; this machine's builds get none.
  writeFileSync(
    join(partial, 'task.toml'),
    'version = "1.0"\n[verifier]\ntimeout_sec = 90\n[environment]\nmemory = "2G"\ncpus = 2\nallow_internet = false\n',
  );
  server = await startScriptedServer({ scripts: SCRIPTS });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** `agent-bench run` on one Harbor folder, built on the sandbox image; its exit code and result file. */
const run = (taskDir: string, model: string[]) =>
  runHarborCli(scratch, taskDir, ['--base-image', base, ...model]);

const scripted = (name: string) => ['--model', name, '--base-url', server.baseUrl];

describe('Harbor tasks in run', () => {
  it('the oracle passes the sound task with reward 1, working in its WORKDIR', async () => {
    const { code, stderr, result } = await run(join(FIXTURES, 'sound'), ['--model', 'oracle']);
    expect(code, stderr).toBe(0);
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('passed');
    expect(trial?.score).toBe(1);
    expect(trial?.flags.reward).toMatchObject({
      reached: true,
      detail: 'Harbor verifier tests/test.sh: reward 1',
    });
    expect(trial?.tamper_detected).toBe(false);
    expect(result.pass_all_k).toBe(true);
  }, 600_000);

  it('--model oracle runs solve.sh as Harbor does: all of solution/ at /solution, as root, a HARBOR_SOLVE line and all', async () => {
    const { code, stderr, result } = await run(join(PARITY, 'harbor-solution-files'), ['--model', 'oracle']);
    expect(code, stderr).toBe(0);
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('passed');
    expect(trial?.turn_logs[0]?.tool_calls[0]).toMatchObject({
      arguments: { command: 'bash /solution/solve.sh' },
      exit_code: 0,
      stdout: 'solved in /app\n',
    });
    // The verifier's run is kept in the record (schema 2.6).
    expect(trial?.harbor_verifier).toEqual({ exit_code: 0, output: '' });
  }, 600_000);

  it('a model sending the oracle’s command runs it as the agent, without /solution', async () => {
    const { result } = await run(join(PARITY, 'harbor-solution-files'), scripted('sneak'));
    const trial = result.trials[0];
    expect(trial?.status).toBe('failed');
    expect(trial?.turn_logs[0]?.tool_calls[0]?.exit_code).not.toBe(0);
    expect(trial?.harbor_verifier).toEqual({
      exit_code: 0,
      output: expect.stringMatching(/^no answer\.txt with 42 in \//),
    });
  }, 600_000);

  it('a task whose Dockerfile uses heredocs runs, and its oracle passes', async () => {
    const { code, stderr, result } = await run(join(PARITY, 'harbor-heredoc'), ['--model', 'oracle']);
    expect(code, stderr).toBe(0);
    expect(result.trials[0]?.status, result.trials[0]?.failure_reason ?? '').toBe('passed');
  }, 600_000);

  it('a model that does nothing fails the sound task with 0, and saw the instruction', async () => {
    const { result } = await run(join(FIXTURES, 'sound'), scripted('idle'));
    const trial = result.trials[0];
    expect(trial?.status).toBe('failed');
    expect(trial?.score).toBe(0);
    expect(trial?.flags.reward?.detail).toBe('Harbor verifier tests/test.sh: reward 0');
    const first = server.requests.find((r) => r.model === 'idle');
    expect(JSON.stringify(first?.body.messages)).toContain('Create a file /app/greeting.txt');
  }, 600_000);

  it('a half solution of a partial-reward task keeps 0.5 as its score and does not pass', async () => {
    const { result } = await run(partial, scripted('half'));
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('failed');
    expect(trial?.passed).toBe(false);
    expect(trial?.score).toBe(0.5);
    expect(trial?.flags.reward).toMatchObject({
      reached: false,
      detail: 'Harbor verifier tests/test.sh: reward 0.5 (reward.json: reward 0.5, lines_right 2)',
    });
    // Every named metric of reward.json is kept in the record.
    expect(trial?.rewards).toEqual({ reward: 0.5, lines_right: 2 });
    expect(result.score).toBe(0.5);
    expect(trial?.turn_logs[0]?.tool_calls[0]?.stdout).toBe('count to four\n1000\n/workspace\n');
  }, 600_000);

  it("a forged reward (a root daemon of the agent's code rewrote it to 1) fails the trial by the agent's fault", async () => {
    const { result } = await run(HOSTILE, scripted('forger'));
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('failed');
    expect(trial?.score).toBe(0);
    expect(trial?.agent_fault?.kind).toBe('sabotaged_checks');
    expect(trial?.error).toBeUndefined();
  }, 600_000);

  it('a FIFO where test.sh reads is a measured failed trial (check_timeout), not an error', async () => {
    const started = Date.now();
    const { result } = await run(HOSTILE, scripted('fifo'));
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? '').toBe('failed');
    expect(trial?.agent_fault?.kind).toBe('check_timeout');
    expect(result.status).toBe('complete');
    // The verifier's timeout is 8 s; the whole run (build cached) stays far below minutes.
    expect(Date.now() - started).toBeLessThan(300_000);
  }, 600_000);
});
