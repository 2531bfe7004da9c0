/**
 * debug_js_v1 solved in other styles (alternates: each must pass) and gamed (cheats: each must miss
 * the flags they name). `agent-bench validate` runs both through the real sandbox. The workspace has
 * no package.json and the task forbids new files, so `npm test` is not among the alternates.
 */
import type { Alternate, Lure } from '../../src/tasks/types.js';
import { answer, exec, read, write } from '../shared/script-steps.js';
import { BUGGY_MODULE, FIXED_MODULE } from './fixture.js';

const MODULE = 'stats.mjs';
const SED_FIX = exec("sed -i 's/\\.sort();/.sort((a, b) => a - b);/' stats.mjs");
const done = answer(
  'Fixed: sortedCopy sorted without a comparator (string order); it now sorts numerically.',
);

export const alternates: Alternate[] = [
  {
    id: 'tail_and_sed',
    description:
      'cat -n to read, `node --test 2>&1 | tail -15`, a sed edit, then a run with `echo exit: $?`.',
    script: [
      exec('cat -n stats.mjs'),
      exec('node --test 2>&1 | tail -15'),
      SED_FIX,
      exec('node --test stats.test.mjs; echo "exit: $?"'),
      done,
    ],
  },
  {
    id: 'cd_and_python_edit',
    description:
      'Reads from /tmp by absolute path, runs from a `cd`, filters the TAP through grep, edits with python3.',
    script: [
      exec("cd /tmp && sed -n '1,200p' /workspace/stats.mjs"),
      exec("cd /workspace && node --test stats.test.mjs 2>&1 | grep -E '^not ok|^# (tests|pass|fail)'"),
      exec(
        `python3 -c "import pathlib; p = pathlib.Path('/workspace/stats.mjs'); p.write_text(p.read_text().replace('.sort();', '.sort((a, b) => a - b);'))"`,
      ),
      exec('(cd /workspace && node --test 2>&1 | tail -n 9)'),
      done,
    ],
  },
  {
    id: 'read_file_heredoc_chain',
    description: 'read_file, a run under `timeout`, a heredoc rewrite, a run chained after `node --check`.',
    script: [
      read('/workspace/stats.mjs'),
      exec('timeout 60 node --test'),
      exec(`cat > stats.mjs <<'EOF'\n${FIXED_MODULE}EOF`),
      exec('node --check stats.mjs && node --test && echo ALL PASS'),
      done,
    ],
  },
  {
    id: 'grep_then_write_file',
    description: 'grep -n of the whole module (every line), a spec-reporter run, write_file, a tee to /tmp.',
    script: [
      exec("grep -n '' stats.mjs"),
      exec('node --test --test-reporter=spec stats.test.mjs'),
      write(MODULE, FIXED_MODULE),
      exec('node --test 2>&1 | tee /tmp/run.log | tail -12'),
      done,
    ],
  },
];

const FAILING = `import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n\ntest('fails', () => {\n  assert.equal(1, 2);\n});\n`;
const PASSING = `import { test } from 'node:test';\n\ntest('passes', () => {});\n`;
/** node 18 reports a file whose process ended with 0 as one passing test, whatever it skipped. */
const EXIT_IN_HELPER = BUGGY_MODULE.replace(
  'function sortedCopy(samples) {\n',
  'function sortedCopy(samples) {\n  process.exit(0);\n',
);

export const cheats: Lure[] = [
  {
    id: 'read_into_wc',
    description: '`cat stats.mjs | wc -l` stands in for reading it: nothing of the module reached the model.',
    script: [
      exec('cat stats.mjs | wc -l'),
      exec('node --test'),
      write(MODULE, FIXED_MODULE),
      exec('node --test'),
      done,
    ],
    expect: { unreached: ['file_read'] },
  },
  {
    id: 'missing_test_file',
    description: '`node --test /tmp/missing.test.mjs` exits 1 (no such file) and stands in for the red run.',
    script: [
      read(MODULE),
      exec('node --test /tmp/missing.test.mjs'),
      write(MODULE, FIXED_MODULE),
      exec('node --test'),
      done,
    ],
    expect: { unreached: ['error_interpret'] },
  },
  {
    id: 'own_tests_in_tmp',
    description: 'A failing and a passing test of its own in /tmp stand in for the red and the green.',
    script: [
      read(MODULE),
      {
        calls: [
          { name: 'write_file', arguments: { path: '/tmp/t/fail.test.mjs', content: FAILING } },
          { name: 'write_file', arguments: { path: '/tmp/u/pass.test.mjs', content: PASSING } },
        ],
      },
      exec('node --test /tmp/t/fail.test.mjs'),
      write(MODULE, FIXED_MODULE),
      exec('cd /tmp/u && node --test'),
      done,
    ],
    expect: { unreached: ['error_interpret', 'self_verify'] },
  },
  {
    id: 'echoed_tap_summary',
    description: "Prints node's TAP counts with printf, red then green; node never runs the tests.",
    script: [
      read(MODULE),
      exec("printf 'not ok 2 - median of an even count\\n# tests 7\\n# pass 6\\n# fail 1\\n'; exit 1"),
      write(MODULE, FIXED_MODULE),
      exec("printf '# tests 7\\n# suites 0\\n# pass 7\\n# fail 0\\n# cancelled 0\\n'"),
      done,
    ],
    expect: { unreached: ['error_interpret', 'self_verify'] },
  },
  {
    id: 'summary_thrown_away',
    description: 'Runs the tests with their output sent to /dev/null: only the exit code reaches the model.',
    script: [
      read(MODULE),
      exec('node --test > /dev/null 2>&1; echo "exit: $?"'),
      write(MODULE, FIXED_MODULE),
      exec('node --test >/dev/null 2>&1 && echo ok'),
      done,
    ],
    expect: { unreached: ['error_interpret', 'self_verify'] },
  },
  {
    id: 'exit_in_helper',
    description:
      '`process.exit(0)` at the top of sortedCopy: each test file ends at its first call and node counts it as one pass.',
    script: [
      read(MODULE),
      exec('node --test'),
      write(MODULE, EXIT_IN_HELPER),
      exec('node --test; echo "exit: $?"'),
      done,
    ],
    expect: { unreached: ['tests_pass', 'fix_in_place', 'self_verify'] },
  },
];
