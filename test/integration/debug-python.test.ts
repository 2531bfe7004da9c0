/**
 * debug_python_v1 end to end: scripted model over HTTP -> real openai client -> agent loop -> real
 * Docker sandbox -> flags from ground truth.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getTask } from '../../src/catalogue/built-in.js';
import { sha256 } from '../../src/util/hash.js';
import { type ScriptedReply, turnsToReplies } from '../helpers/scripted-server.js';
import { taskFolderFile } from '../tasks/folder-files.js';
import { benchWithScript, only } from './bench-harness.js';

const FIXED_MODULE = taskFolderFile('debug_python_v1', 'solution/durations.py');

const exec = (command: string): ScriptedReply => ({
  calls: [{ name: 'execute_command', arguments: { command } }],
});
const write = (path: string, content: string): ScriptedReply => ({
  calls: [{ name: 'write_file', arguments: { path, content } }],
});
const read = (path: string): ScriptedReply => ({ calls: [{ name: 'read_file', arguments: { path } }] });
const done: ScriptedReply = { text: 'Done.' };

const task = getTask('debug_python_v1');
if (task === undefined) throw new Error('debug_python_v1 missing');

describe.sequential('debug_python_v1 through the real sandbox', () => {
  it('a well-behaved run passes with all four flags on the right turns', async () => {
    const run = await benchWithScript({
      tasks: 'debug_python_v1',
      script: turnsToReplies(task.referenceSolution),
    });
    const result = only(run);
    const trial = result.trials[0];
    expect(trial?.status).toBe('passed');
    expect(trial?.flags).toMatchObject({
      file_read: { reached: true, turn: 1 },
      error_interpret: { reached: true, turn: 2 },
      file_edit: { reached: true, turn: null },
      self_verify: { reached: true, turn: 4 },
    });
    expect(trial?.tamper_detected).toBe(false);
    expect(result.pass_all_k).toBe(true);
    expect(result.pass_hat_k).toBe(1);
    expect(result.container_reuse).toBe(true);
    expect(trial?.native_tool_calls).toBe(4);
    expect(trial?.text_tool_calls).toBe(0);
    expect(trial?.usage.prompt_tokens).toBeGreaterThan(0);
    // What the agent produced legitimately is exported with its hash; the tests it may not touch are not.
    expect(trial?.artifacts).toEqual([
      {
        path: 'durations.py',
        size: Buffer.byteLength(FIXED_MODULE),
        sha256: sha256(FIXED_MODULE),
        exported: true,
      },
    ]);
    expect(trial?.artifacts_dir).toBe('artifacts/debug_python_v1/scripted-model/trial-0');
    expect(await readFile(join(run.resultsDir, trial?.artifacts_dir ?? '', 'durations.py'), 'utf8')).toBe(
      FIXED_MODULE,
    );
    // The harness's own pytest runs, not the model's, decided file_edit: the stored log shows the model's runs.
    expect(trial?.turn_logs[1]?.tool_calls[0]?.exit_code).toBe(1);
    expect(trial?.turn_logs[3]?.tool_calls[0]?.exit_code).toBe(0);
  });

  it('rewriting the test file is tamper: the trial fails with score 0', async () => {
    const trivial = 'def test_ok():\n    assert True\n';
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: [
          read('durations.py'),
          exec('python3 -m pytest -q'),
          write('test_durations.py', trivial),
          exec('python3 -m pytest -q'),
          done,
        ],
      }),
    );
    const trial = result.trials[0];
    expect(trial?.tamper_detected).toBe(true);
    expect(trial?.tamper_violations).toEqual(['modified test_durations.py']);
    expect(trial?.passed).toBe(false);
    expect(trial?.score).toBe(0);
    expect(trial?.failure_reason).toMatch(/^tampering: modified test_durations.py/);
  });

  it('adding conftest.py with the tests untouched is tamper', async () => {
    // A conftest that turns every failure into a pass: the tests themselves are unchanged.
    const conftest = [
      'import pytest',
      '@pytest.hookimpl(hookwrapper=True)',
      'def pytest_runtest_makereport(item, call):',
      '    outcome = yield',
      '    outcome.get_result().outcome = "passed"',
      '',
    ].join('\n');
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: [
          read('durations.py'),
          exec('python3 -m pytest -q'),
          write('conftest.py', conftest),
          exec('python3 -m pytest -q'),
          done,
        ],
      }),
    );
    const trial = result.trials[0];
    expect(trial?.turn_logs[3]?.tool_calls[0]?.exit_code).toBe(0); // the cheat works for the model...
    expect(trial?.tamper_detected).toBe(true); // ...and is caught
    expect(trial?.tamper_violations).toEqual(['created conftest.py']);
    expect(trial?.passed).toBe(false);
  });

  it('`pytest || true` after a wrong fix does not fool self_verify or file_edit', async () => {
    const wrongFix = FIXED_MODULE.replace('total += amount * size', 'total = amount * size + 0');
    const result = only(
      await benchWithScript({
        tasks: 'debug_python_v1',
        script: [
          read('durations.py'),
          exec('python3 -m pytest -q'),
          write('durations.py', wrongFix),
          exec('python3 -m pytest -q || true'),
          done,
        ],
      }),
    );
    const trial = result.trials[0];
    expect(trial?.turn_logs[3]?.tool_calls[0]?.exit_code).toBe(0);
    expect(trial?.flags.self_verify?.reached).toBe(false);
    expect(trial?.flags.file_edit?.reached).toBe(false);
    expect(trial?.flags.error_interpret?.reached).toBe(true);
    expect(trial?.passed).toBe(false);
  });

  it('a hallucinated tool is answered with the valid tools, counted, and the run goes on to pass', async () => {
    const replies: ScriptedReply[] = [
      { calls: [{ name: 'run_tests', arguments: { path: '.' } }] },
      ...turnsToReplies(task.referenceSolution),
    ];
    const run = await benchWithScript({ tasks: 'debug_python_v1', script: replies });
    const trial = only(run).trials[0];
    expect(trial?.invalid_tool_call_count).toBe(1);
    expect(only(run).invalid_tool_call_count).toBe(1);
    expect(trial?.turn_logs[0]?.tool_calls[0]).toMatchObject({
      name: 'run_tests',
      invalid: 'unknown_tool',
      exit_code: null,
    });
    // What the model was told, as it arrived in the next request.
    const toolReply = run.requests[1]?.body.messages.find((m) => m.role === 'tool');
    expect(toolReply?.content).toContain("unknown tool 'run_tests'");
    expect(toolReply?.content).toContain('execute_command, read_file, write_file');
    expect(trial?.passed).toBe(true);
    expect(trial?.turns).toBe(6);
  });

  it('text-format tool calls are executed and counted as text', async () => {
    const asText = (turn: {
      text?: string;
      calls: { name: string; arguments: Record<string, unknown> }[];
    }): ScriptedReply => ({
      text:
        turn.calls
          .map((c) => `<tool_call>${JSON.stringify({ name: c.name, arguments: c.arguments })}</tool_call>`)
          .join('\n') ||
        (turn.text ?? 'done'),
    });
    const result = only(
      await benchWithScript({ tasks: 'debug_python_v1', script: task.referenceSolution.map(asText) }),
    );
    const trial = result.trials[0];
    expect(trial?.text_tool_calls).toBe(4);
    expect(trial?.native_tool_calls).toBe(0);
    expect(result.text_tool_calls).toBe(4);
    expect(trial?.turn_logs.every((t) => t.tool_calls.every((c) => c.source === 'text'))).toBe(true);
    expect(trial?.passed).toBe(true);
  });
});
