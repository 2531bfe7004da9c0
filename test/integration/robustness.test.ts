/**
 * Bad things during a run: a container that dies, a model that replies garbage or stops answering.
 * Each gets a clear record and loses nothing already recorded.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { getTask } from '../../tasks/index.js';
import { type ScriptedReply, turnsToReplies } from '../helpers/scripted-server.js';
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

  it('a model that stops answering ends the trial as llm_error, scored on what it did', async () => {
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: [...oracle.slice(0, 2), { status: 500, error: 'model crashed' }],
      }),
    );
    const trial = result.trials[0];
    expect(trial?.failure_reason).toMatch(/^llm_error: /);
    expect(trial?.flags.file_read?.reached).toBe(true);
    expect(trial?.flags.error_interpret?.reached).toBe(false);
    expect(trial?.status).toBe('failed');
  });
});
