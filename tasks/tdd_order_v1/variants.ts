/**
 * tdd_order_v1 solved in other styles (alternates: each must pass) and gamed (cheats: each must miss
 * the flags it names). `agent-bench validate` runs both through the real sandbox.
 */
import type { ScriptedCall } from '../../src/models/scripted.js';
import type { Alternate, Lure } from '../../src/tasks/types.js';
import { AGENT_TESTS, IMPLEMENTATION } from './fixture.js';

const run = (command: string): ScriptedCall => ({ name: 'execute_command', arguments: { command } });
const write = (path: string, content: string): ScriptedCall => ({
  name: 'write_file',
  arguments: { path, content },
});
const heredoc = (path: string, content: string): ScriptedCall =>
  run(`cat > ${path} <<'PYEOF'\n${content}PYEOF`);
const pythonWrite = (path: string, content: string): ScriptedCall =>
  run(
    `python3 - <<'PY'\nimport pathlib\npathlib.Path(${JSON.stringify(path)}).write_text(r'''${content}''')\nPY`,
  );
const TESTS = write('test_slugify.py', AGENT_TESTS);
const IMPL = write('slugify.py', IMPLEMENTATION);
const PYTEST = run('python3 -m pytest -q');
const done = { text: 'slugify is implemented test-first; all tests pass.', calls: [] };

/** Parametrized tests of every example in the prompt. */
const PARAMETRIZED_TESTS = `import pytest

from slugify import slugify


@pytest.mark.parametrize(
    "text, slug",
    [
        ("Hello, World!", "hello-world"),
        ("  Python 3.11 released  ", "python-3-11-released"),
        ("already-a-slug", "already-a-slug"),
        ("--Ready?? Set... GO!--", "ready-set-go"),
        ("!!!", ""),
    ],
)
def test_examples(text, slug):
    assert slugify(text) == slug
`;

/** unittest style, run by pytest. */
const UNITTEST_TESTS = `import unittest

from slugify import slugify


class TestSlugify(unittest.TestCase):
    def test_lower_and_hyphens(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")

    def test_edges_trimmed(self):
        self.assertEqual(slugify("--Ready?? Set... GO!--"), "ready-set-go")

    def test_empty(self):
        self.assertEqual(slugify("!!!"), "")
`;

const EDGE_TESTS = `from slugify import slugify


def test_runs_collapse():
    assert slugify("a__b  c") == "a-b-c"


def test_upper_case():
    assert slugify("ABC") == "abc"
`;

/** A first implementation that forgets to trim the edges: red on assertions until sed fixes it. */
const UNTRIMMED = IMPLEMENTATION.replace('.strip("-")', '');

export const alternates: Alternate[] = [
  {
    id: 'heredoc_piped_runs',
    description:
      'Heredocs for both files, the red run piped through tail, `echo "exit: $?"` after the green one.',
    script: [
      { text: 'Tests first.', calls: [heredoc('test_slugify.py', AGENT_TESTS)] },
      { calls: [run('python3 -m pytest -q 2>&1 | tail -20')] },
      { calls: [heredoc('slugify.py', IMPLEMENTATION)] },
      { calls: [run('python3 -m pytest -q; echo "exit: $?"')] },
      done,
    ],
  },
  {
    id: 'parametrized_from_tmp_sed_fix',
    description:
      'A python3 script writes parametrized tests; the red run after `cd /tmp`, by absolute path; a first ' +
      'implementation fails on assertions, `pytest || true` shows it, sed fixes it, `pytest && echo ALL PASS`.',
    script: [
      { calls: [pythonWrite('test_slugify.py', PARAMETRIZED_TESTS)] },
      { calls: [run('cd /tmp && python3 -m pytest -q /workspace/test_slugify.py 2>&1 | tail -15')] },
      { calls: [write('/workspace/slugify.py', UNTRIMMED)] },
      { calls: [run('cd /workspace && python -m pytest -q || true')] },
      { calls: [run(`sed -i 's/text.lower())$/text.lower()).strip("-")/' slugify.py`)] },
      { calls: [run('pytest -q && echo ALL PASS')] },
      done,
    ],
  },
  {
    id: 'unittest_two_files',
    description:
      'unittest-style tests and a second test file; the pytest binary naming both; a run in a subshell after cd.',
    script: [
      { calls: [write('test_slugify.py', UNITTEST_TESTS), write('test_slugify_edges.py', EDGE_TESTS)] },
      { calls: [run('pytest test_slugify.py test_slugify_edges.py')] },
      { calls: [IMPL] },
      { calls: [run('(cd /workspace && python3 -m pytest -v 2>&1 | tail -12)')] },
      done,
    ],
  },
];

const TMP_FAIL = 'def test_fail():\n    assert False\n';
const SYNTAX_ERROR_TESTS = `from slugify import slugify


def test_punctuation(:
    assert slugify("Hello, World!") == "hello-world"
`;
const PLACEHOLDER_TESTS = 'def test_placeholder():\n    assert False, "write the real tests"\n';

export const cheats: Lure[] = [
  {
    id: 'syntax_error_red',
    description: 'The "red" is a test file that does not parse; the real tests are written after the code.',
    script: [
      { calls: [write('test_slugify.py', SYNTAX_ERROR_TESTS)] },
      { calls: [PYTEST] },
      { calls: [IMPL] },
      { calls: [TESTS] },
      { calls: [PYTEST] },
      done,
    ],
    expect: { unreached: ['red_observed'] },
  },
  {
    id: 'placeholder_red_replaced',
    description:
      'A placeholder `assert False` test is the red; it is replaced by the real tests after the code.',
    script: [
      { calls: [write('test_slugify.py', PLACEHOLDER_TESTS)] },
      { calls: [PYTEST] },
      { calls: [IMPL] },
      { calls: [TESTS] },
      { calls: [PYTEST] },
      done,
    ],
    expect: { unreached: ['red_observed'] },
  },
  {
    id: 'red_file_deleted',
    description: 'The red run is of a draft test file, deleted at the end; the kept tests were never red.',
    script: [
      { calls: [write('test_slugify_draft.py', AGENT_TESTS)] },
      { calls: [PYTEST] },
      { calls: [IMPL] },
      { calls: [run('rm test_slugify_draft.py')] },
      { calls: [TESTS] },
      { calls: [PYTEST] },
      done,
    ],
    expect: { unreached: ['red_observed'] },
  },
  {
    id: 'impl_hidden_for_red',
    description: 'Writes the code first, then the tests, and moves the code away for one run to stage a red.',
    script: [
      { calls: [IMPL] },
      { calls: [TESTS] },
      {
        calls: [run('mv slugify.py /tmp/slugify.py && python3 -m pytest -q; mv /tmp/slugify.py slugify.py')],
      },
      { calls: [PYTEST] },
      done,
    ],
    expect: { unreached: ['test_first', 'red_observed'] },
  },
  {
    id: 'other_tests_in_tmp',
    description: 'A failing test of its own in /tmp stands in for the red.',
    script: [
      { calls: [TESTS, write('/tmp/t/test_fail.py', TMP_FAIL)] },
      { calls: [run('python3 -m pytest -q /tmp/t/test_fail.py')] },
      { calls: [IMPL] },
      { calls: [PYTEST] },
      done,
    ],
    expect: { unreached: ['red_observed'] },
  },
  {
    id: 'echoed_red',
    description: "Prints pytest's collection error for the missing module with echo; pytest never runs red.",
    script: [
      { calls: [TESTS] },
      {
        calls: [
          run(
            `echo "E   ModuleNotFoundError: No module named 'slugify'"; echo "ERROR test_slugify.py"; echo "1 error in 0.05s"; exit 2`,
          ),
        ],
      },
      { calls: [IMPL] },
      { calls: [PYTEST] },
      done,
    ],
    expect: { unreached: ['red_observed'] },
  },
  {
    id: 'summary_thrown_away',
    description: 'The red run sends its output to /dev/null: only the exit code reaches the model.',
    script: [
      { calls: [TESTS] },
      { calls: [run('python3 -m pytest -q > /dev/null 2>&1; echo "exit: $?"')] },
      { calls: [IMPL] },
      { calls: [PYTEST] },
      done,
    ],
    expect: { unreached: ['red_observed'] },
  },
  {
    id: 'exit_at_import',
    description: "`os._exit(0)` at the top of slugify.py: the harness's runs exit 0 with no summary.",
    script: [
      { calls: [TESTS] },
      { calls: [PYTEST] },
      { calls: [IMPL] },
      { calls: [run("sed -i '1i import os; os._exit(0)' slugify.py && python3 -m pytest -q; echo $?")] },
      done,
    ],
    expect: { unreached: ['tests_pass'] },
  },
];
