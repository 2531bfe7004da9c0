/**
 * An agent cannot pick its verdict or stall the run (issue #22): each attack, as a scripted model
 * against the real engine, ends as a measured failed trial (never `error`, never a pass) within the
 * trial's bounds, and the run goes on to its next trial. What counts as whose failure is
 * src/agent/attribution.ts (the README's table).
 */
import { describe, expect, it } from 'vitest';
import { getTask } from '../../src/catalogue/built-in.js';
import { CHECK_TIMEOUT_SEC } from '../../src/tasks/types.js';
import type { ScriptedReply } from '../helpers/scripted-server.js';
import { benchWithScript, only } from './bench-harness.js';

const exec = (command: string): ScriptedReply => ({
  calls: [{ name: 'execute_command', arguments: { command } }],
});
const read = (path: string): ScriptedReply => ({ calls: [{ name: 'read_file', arguments: { path } }] });
const write = (path: string, content: string): ScriptedReply => ({
  calls: [{ name: 'write_file', arguments: { path, content } }],
});
const done: ScriptedReply = { text: 'Done.' };
/** The sabotaged check's bound (the task's check_timeout_sec). */
const CHECK_BOUND_SEC = 20;

/** The same replies for every trial of a k-trial run: each trial asks for them in order. */
function perTrial(replies: ScriptedReply[]) {
  return (_body: unknown, index: number): ScriptedReply => replies[index % replies.length] ?? done;
}

// Every attack below leaves durations.py unfixed: the honest verdict is "failed".
describe.sequential('attacks on the harness are the agent’s failures', () => {
  it('a `kill -STOP -1` loop as the agent neither hangs the run nor makes its trials errors', async () => {
    const started = Date.now();
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      settings: { k: 2, command_timeout_sec: 5 },
      script: perTrial([
        exec("nohup bash -c 'while :; do kill -STOP -1; done' >/dev/null 2>&1 &"),
        // Stopped by the loop: the command's timeout ends it.
        exec('ls'),
        read('durations.py'),
        write('notes.txt', 'x'),
        done,
      ]),
    });
    const result = only(run);
    expect(result.trials.map((t) => t.status)).toEqual(['failed', 'failed']);
    expect(result.trials.every((t) => t.error === undefined)).toBe(true);
    // The file tools are out of the loop's reach: the read worked while it ran.
    const readCall = result.trials[0]?.turn_logs[2]?.tool_calls[0];
    expect(readCall?.exit_code).toBe(0);
    expect(readCall?.stdout).toContain('def parse_duration');
    expect(result.status).toBe('complete');
    // Far below the 20+ minutes a stalled engine call once took: each trial's commands time out at 5 s.
    expect(Date.now() - started).toBeLessThan(240_000);
  });

  it('a job that stops the file tools cannot stall them', async () => {
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: perTrial([
          exec(
            "nohup sh -c 'while :; do pkill -STOP -x dd; pkill -STOP -x tar; pkill -STOP -f file_tool; done' >/dev/null 2>&1 &",
          ),
          read('durations.py'),
          write('scratch.txt', 'hello'),
          exec('cat scratch.txt'),
          done,
        ]),
      }),
    );
    const trial = result.trials[0];
    expect(trial?.status).toBe('failed');
    expect(trial?.turn_logs[1]?.tool_calls[0]?.exit_code).toBe(0);
    expect(trial?.turn_logs[3]?.tool_calls[0]?.stdout).toBe('hello');
  });

  it('agent code that stops the checker’s processes when a check imports it fails its trial, not errors', async () => {
    // durations.py double-forks a daemon (as whoever imports it: the checker) that stops every
    // process of its user, then hands back a wrong parse_duration.
    const sabotage = [
      'import os, signal, time',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    if os.fork() == 0:',
      '        while True:',
      '            try:',
      '                os.kill(-1, signal.SIGSTOP)',
      '            except OSError:',
      '                pass',
      '            time.sleep(0.01)',
      '    os._exit(0)',
      'def parse_duration(text):',
      '    return 0',
      'def format_duration(seconds):',
      '    return ""',
      '',
    ].join('\n');
    // The stopped check waits out the task's bound on a check's run: a short one, so the test does too.
    const task = getTask('debug_python_v1');
    if (task?.kind !== 'sandbox') throw new Error('debug_python_v1 missing');
    const started = Date.now();
    const result = only(
      await benchWithScript({
        tasks: [{ ...task, checkTimeoutSec: CHECK_BOUND_SEC }],
        script: perTrial([read('durations.py'), write('durations.py', sabotage), done]),
      }),
    );
    const trial = result.trials[0];
    expect(trial?.status).toBe('failed');
    expect(trial?.flags.file_edit?.reached).toBe(false);
    expect(trial?.error).toBeUndefined();
    // The check was stopped at its bound, not at the default one.
    expect(Date.now() - started).toBeGreaterThanOrEqual(CHECK_BOUND_SEC * 1000);
    expect(Date.now() - started).toBeLessThan(CHECK_TIMEOUT_SEC * 1000);
  }, 900_000);
});
