/**
 * Legitimate test-first runs in other styles than the reference, which `agent-bench validate`
 * requires to pass: heredoc and python3 editors, a sed -i fix, `> red.log 2>`> red.log 2>&1` and the pytest1` (also under `timeout`) and the pytest
 * binary instead of `| tee`, and suites using the call form of pytest.raises, unittest, or nested
 * helpers.
 */
import type { Alternate } from '../../src/tasks/types.js';
import { answer, exec, write } from '../shared/script-steps.js';
import { AGENT_TESTS, IMPLEMENTATION } from './fixture.js';
import { CALL_FORM_TESTS, NESTED_HELPER_TESTS, UNITTEST_TESTS } from './variants.js';

const heredoc = (path: string, content: string) => `cat > ${path} <<'EOF'\n${content}EOF`;
const pythonWrite = (path: string, content: string) =>
  `python3 - <<'PY'\nimport pathlib\npathlib.Path(${JSON.stringify(path)}).write_text(r'''${content}''')\nPY`;

/** The reference without zero padding: "1.2" and "1.2.0" compare unequal until sed adds it back. */
const UNPADDED = IMPLEMENTATION.replace('    left += [0] * (width - len(left))\n', () => '');

export const tddStrictAlternates: Alternate[] = [
  {
    id: 'heredoc_call_form',
    description:
      'Heredocs for both files; pytest.raises(E, fn, *args); the red run redirected with > red.log 2>&1.',
    script: [
      exec(heredoc('test_versions.py', CALL_FORM_TESTS), 'Tests first.'),
      exec('python3 -m pytest -q > red.log 2>&1'),
      exec(heredoc('versions.py', IMPLEMENTATION)),
      exec('python3 -m pytest -q 2>&1 | tail -5'),
      answer('compare_versions is implemented test-first; red.log holds the failing run.'),
    ],
  },
  {
    id: 'python_unittest',
    description:
      'A python3 script writes a unittest suite (assertRaises call form); runs after cd, naming the file.',
    script: [
      exec(pythonWrite('test_versions.py', UNITTEST_TESTS)),
      exec('cd /workspace && python3 -m pytest -q test_versions.py 2>&1 | tee red.log'),
      write('versions.py', IMPLEMENTATION),
      exec('cd /workspace && python3 -m pytest -q test_versions.py'),
      answer('Done: unittest-style tests, red logged, then the code.'),
    ],
  },
  {
    id: 'sed_fix_pytest_binary',
    description:
      'Nested helpers in the tests; the pytest binary; a first implementation fails and sed -i fixes it.',
    script: [
      write('test_versions.py', NESTED_HELPER_TESTS),
      exec('pytest -q 2>&1 | tee /workspace/red.log'),
      write('versions.py', UNPADDED),
      exec('pytest -q'),
      exec(
        `sed -i 's/^    right += \\[0\\] \\* (width - len(right))$/    left += [0] * (width - len(left))\\n&/' versions.py`,
      ),
      exec('pytest -q'),
      answer('Red logged; a padding bug fixed with sed; green.'),
    ],
  },
  {
    id: 'reference_tests_tee_dash_a',
    description:
      'The reference tests, logged with `tee -a`, and checked with `python3 -m pytest -q && echo ok`.',
    script: [
      write('test_versions.py', AGENT_TESTS),
      exec('python3 -m pytest -q 2>&1 | tee -a red.log'),
      write('versions.py', IMPLEMENTATION),
      exec('python3 -m pytest -q && echo ok'),
      answer('Done.'),
    ],
  },
  {
    id: 'timeout_wrapper_redirect',
    description:
      'The red run under `timeout` (which opens red.log for pytest) after cd, then `cat red.log`; `pytest; echo "exit: $?"`.',
    script: [
      write('test_versions.py', AGENT_TESTS),
      exec('cd /workspace && timeout 120 python3 -m pytest -q > /workspace/red.log 2>&1; cat red.log'),
      exec(heredoc('versions.py', IMPLEMENTATION)),
      exec('python3 -m pytest -q; echo "exit: $?"'),
      answer('Done: red logged under timeout, then the code.'),
    ],
  },
];
