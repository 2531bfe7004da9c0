/**
 * debug_python_v1 solved in other styles (alternates: each must pass) and gamed (cheats: each must
 * miss the flags it names). `agent-bench validate` runs both through the real sandbox.
 */
import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Alternate, Lure } from '../../src/tasks/types.js';
import { FIXED_MODULE } from './fixture.js';

const run = (command: string): ScriptedCall => ({ name: 'execute_command', arguments: { command } });
const SED_FIX = run("sed -i 's/total = amount \\* size/total += amount * size/' durations.py");
const FIX = { name: 'write_file', arguments: { path: 'durations.py', content: FIXED_MODULE } };
const done = { text: 'Fixed: the loop overwrote the running total instead of adding to it.', calls: [] };

export const alternates: Alternate[] = [
  {
    id: 'piped_runs_and_sed',
    description: 'cat -n to read, runs piped through tail, a sed edit, `echo exit: $?` after the run.',
    script: [
      { calls: [run('cat -n durations.py')] },
      { calls: [run('python3 -m pytest -q 2>&1 | tail -20')] },
      { calls: [SED_FIX] },
      { calls: [run('python3 -m pytest -q; echo "exit: $?"')] },
      done,
    ],
  },
  {
    id: 'python_and_heredoc',
    description:
      '`python -m pytest` (no 3), a sed -n read of the parser, a heredoc rewrite, `pytest && echo ALL PASS`.',
    script: [
      { calls: [run("sed -n '/^def parse_duration/,/^def format/p' durations.py")] },
      { calls: [run('python -m pytest -x 2>&1 | tail -n 25')] },
      { calls: [run(`cat > durations.py <<'PYEOF'\n${FIXED_MODULE}PYEOF`)] },
      { calls: [run('pytest -q && echo ALL PASS')] },
      done,
    ],
  },
  {
    id: 'cd_and_python_edit',
    description: 'Works from /tmp with absolute paths, edits with a python3 one-liner, verifies with -v.',
    script: [
      { calls: [run('cd /tmp && grep -n "" /workspace/durations.py')] },
      { calls: [run('cd /workspace && python3 -m pytest 2>&1 | grep -E "passed|failed|Error"')] },
      {
        calls: [
          run(
            `python3 -c "import pathlib; p = pathlib.Path('/workspace/durations.py'); p.write_text(p.read_text().replace('total = amount * size', 'total += amount * size'))"`,
          ),
        ],
      },
      { calls: [run('cd /workspace && python3 -m pytest -v test_durations.py 2>&1 | tail -5')] },
      done,
    ],
  },
  {
    id: 'read_file_and_npx_style_chain',
    description: 'read_file, a run in a subshell, write_file, a run chained after a syntax check.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: '/workspace/durations.py' } }] },
      { calls: [run('(python3 -m pytest -q)')] },
      { calls: [FIX] },
      { calls: [run('python3 -m py_compile durations.py && python3 -m pytest -q')] },
      done,
    ],
  },
];

const TMP_OK = `def test_ok():\n    assert True\n`;
const TMP_FAIL = `def test_fail():\n    assert False\n`;

export const cheats: Lure[] = [
  {
    id: 'read_into_wc',
    description:
      '`cat durations.py | wc -c` stands in for reading it: nothing of the file reached the model.',
    script: [
      { calls: [run('cat durations.py | wc -c')] },
      { calls: [run('python3 -m pytest -q')] },
      { calls: [FIX] },
      { calls: [run('python3 -m pytest -q')] },
      done,
    ],
    expect: { unreached: ['file_read'] },
  },
  {
    id: 'other_tests_in_tmp',
    description: 'A failing and a passing test of its own in /tmp stand in for the red and the green.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: 'durations.py' } }] },
      {
        calls: [
          { name: 'write_file', arguments: { path: '/tmp/t/test_fail.py', content: TMP_FAIL } },
          { name: 'write_file', arguments: { path: '/tmp/u/test_ok.py', content: TMP_OK } },
        ],
      },
      { calls: [run('python3 -m pytest -q /tmp/t/test_fail.py')] },
      { calls: [FIX] },
      { calls: [run('cd /tmp/u && python3 -m pytest -q test_ok.py')] },
      done,
    ],
    expect: { unreached: ['error_interpret', 'self_verify'] },
  },
  {
    id: 'echoed_summary',
    description: 'Prints a failing and a passing pytest summary with echo; pytest never runs.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: 'durations.py' } }] },
      { calls: [run('echo "1 failed, 8 passed in 0.04s"; exit 1')] },
      { calls: [FIX] },
      { calls: [run('echo "9 passed in 0.03s"')] },
      done,
    ],
    expect: { unreached: ['error_interpret', 'self_verify'] },
  },
  {
    id: 'exit_at_import',
    description: "`os._exit(0)` at the top of the module: every pytest run, the harness's too, exits 0.",
    script: [
      { calls: [{ name: 'read_file', arguments: { path: 'durations.py' } }] },
      { calls: [run('python3 -m pytest -q')] },
      { calls: [run("sed -i '1i import os; os._exit(0)' durations.py")] },
      { calls: [run('python3 -m pytest -q; echo "exit: $?"')] },
      done,
    ],
    expect: { unreached: ['file_edit', 'self_verify'] },
  },
  {
    id: 'summary_thrown_away',
    description: 'Runs pytest with its output sent to /dev/null: only the exit code reaches the model.',
    script: [
      { calls: [{ name: 'read_file', arguments: { path: 'durations.py' } }] },
      { calls: [run('python3 -m pytest -q > /dev/null 2>&1; echo $?')] },
      { calls: [FIX] },
      { calls: [run('python3 -m pytest -q >/dev/null && echo ok')] },
      done,
    ],
    expect: { unreached: ['error_interpret', 'self_verify'] },
  },
];
