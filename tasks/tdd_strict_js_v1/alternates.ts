/**
 * Legitimate test-first runs in other styles than the reference, which `agent-bench validate`
 * requires to pass: heredoc and python3 editors, a sed -i fix, test runs after cd, on a named file,
 * or piped; suites in other node:test and node:assert styles.
 */
import type { Alternate } from '../../src/tasks/types.js';
import { answer, exec, write } from '../shared/script-steps.js';
import { AGENT_TESTS, IMPLEMENTATION } from './fixture.js';
import { DESCRIBE_THROWS_TESTS, TABLE_TESTS } from './variants.js';

const heredoc = (path: string, content: string) => `cat > ${path} <<'EOF'\n${content}EOF`;
const pythonWrite = (path: string, content: string) =>
  `python3 - <<'PY'\nimport pathlib\npathlib.Path(${JSON.stringify(path)}).write_text(r'''${content}''')\nPY`;

/** The reference parser, except that it forgets to sort: the second run is red, and sed fixes it. */
const UNSORTED = IMPLEMENTATION.replace(
  'return [...pages].sort((a, b) => a - b);',
  () => 'return [...pages];',
);

export const tddStrictJsAlternates: Alternate[] = [
  {
    id: 'heredoc_describe_throws',
    description:
      'Heredocs for both files; describe/it with assert.throws(fn, /re/) and assert.rejects; runs after cd.',
    script: [
      exec(heredoc('pages.test.mjs', DESCRIBE_THROWS_TESTS), 'Tests first.'),
      exec('cd /workspace && node --test'),
      exec(heredoc('pages.mjs', IMPLEMENTATION)),
      exec('cd /workspace && node --test'),
      answer('parsePages is implemented test-first.'),
    ],
  },
  {
    id: 'python_table_tests',
    description:
      'A python3 script writes a table-driven suite (named asserts, default test export); runs name the file.',
    script: [
      exec(pythonWrite('pages.test.mjs', TABLE_TESTS)),
      exec('node --test pages.test.mjs'),
      write('pages.mjs', IMPLEMENTATION),
      exec('node --test pages.test.mjs'),
      answer('Done: tests first, seen red, then the parser.'),
    ],
  },
  {
    id: 'sed_fix_after_red',
    description: 'A first implementation fails a test; sed -i fixes it and the suite goes green.',
    script: [
      write('pages.test.mjs', AGENT_TESTS),
      exec('node --test'),
      write('pages.mjs', UNSORTED),
      exec('node --test'),
      exec("sed -i 's/return \\[\\.\\.\\.pages\\];/return [...pages].sort((a, b) => a - b);/' pages.mjs"),
      exec('node --test'),
      answer('Red, a failing sort, then green.'),
    ],
  },
  {
    id: 'piped_runs',
    description:
      'The reference, with every run piped: `node --test 2>&1 | tail -40` (enough to show why the file failed).',
    script: [
      write('pages.test.mjs', AGENT_TESTS),
      exec('node --test 2>&1 | tail -40'),
      write('pages.mjs', IMPLEMENTATION),
      exec('node --test 2>&1 | tail -40'),
      answer('parsePages is implemented test-first.'),
    ],
  },
];
