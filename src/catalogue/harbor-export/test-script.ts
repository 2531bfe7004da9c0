/**
 * tests/test.sh of an exported task: agent-bench's outcome checks as Harbor's verifier runs them
 * (bash, as root, after the agent), each printing PASS or FAIL with its flag's id, and a reward of
 * 1 in /logs/verifier/reward.txt only when every one holds and no protected file of the starting
 * workspace changed. The test runs are agent-bench's own harness commands (src/scoring/
 * pytest-run.ts, node-test-run.ts) judged as agent-bench judges them: by the runner's own summary,
 * not its exit code alone (an xpassed test, no test at all or a short count fail).
 */
import { shellQuote } from '../../manifest/shell-quote.js';
import type { ExportedCheck } from './checks.js';

/** Starting files the agent may not change, as sha256sum lists them; checked from /tests. */
export const PROTECTED_LIST = 'protected.sha256';

const PRELUDE = `mkdir -p /logs/verifier
failed=0
verdict() { # flag, then the command whose success decides it
  local flag=$1; shift
  if "$@"; then echo "PASS $flag"; else echo "FAIL $flag"; failed=1; fi
}

# The last count of "N <word>" in pytest's summary line, 0 when it has none.
pytest_count() { grep -oE "[0-9]+ $2" <<<"$1" | tail -n 1 | grep -oE '^[0-9]+' || echo 0; }

# pytest as agent-bench's harness runs it: the workspace kept off sys.path (-P), no conftest, no
# cache, bytecode only under a prefix of the verifier's own. Passes when pytest exits 0 and its
# summary counts no failure, error or xpass, and at least one pass (exactly $1 when $1 is not -).
pytest_passes() {
  local expected=$1; shift
  local out code summary passed
  out=$(cd /workspace && PYTHONPYCACHEPREFIX=/tmp/agent-bench-pycache python3 -P -m pytest -q -p no:cacheprovider --noconftest "$@" 2>&1)
  code=$?
  tail -n 20 <<<"$out"
  summary=$(grep -E '[0-9]+ [a-z]+.* in [0-9.]+s' <<<"$out" | tail -n 1)
  passed=$(pytest_count "$summary" passed)
  [ "$code" -eq 0 ] || return 1
  [ "$(pytest_count "$summary" failed)" -eq 0 ] && [ "$(pytest_count "$summary" 'errors?')" -eq 0 ] &&
    [ "$(pytest_count "$summary" xpassed)" -eq 0 ] || return 1
  if [ "$expected" = - ]; then [ "$passed" -ge 1 ]; else [ "$passed" -eq "$expected" ]; fi
}

# The last "# <key> N" of node's TAP summary, empty when the run never finished.
tap_count() { grep -E "^# $2 [0-9]+$" <<<"$1" | tail -n 1 | grep -oE '[0-9]+$'; }

# node --test with the TAP reporter on the named files: passes when node exits 0 and its summary
# counts every test passed, none failed or cancelled (exactly $1 tests when $1 is not -).
node_test_passes() {
  local expected=$1; shift
  local out code tests pass
  out=$(cd /workspace && node --test --test-reporter=tap "$@" 2>&1)
  code=$?
  tail -n 20 <<<"$out"
  tests=$(tap_count "$out" tests)
  pass=$(tap_count "$out" pass)
  [ "$code" -eq 0 ] && [ -n "$tests" ] && [ "$pass" = "$tests" ] &&
    [ "$(tap_count "$out" fail)" = 0 ] && [ "$(tap_count "$out" cancelled)" = 0 ] || return 1
  if [ "$expected" = - ]; then [ "$pass" -ge 1 ]; else [ "$pass" -eq "$expected" ]; fi
}

# A command in /workspace that must exit with the given code.
exits_with() {
  local want=$1 command=$2
  (cd /workspace && bash -c "$command")
  local code=$?
  [ "$code" -eq "$want" ] || { echo "exited $code, not $want"; return 1; }
}

# A regular file of the workspace (not a link) whose content holds every check that follows:
# +TEXT it contains TEXT, -TEXT it does not, >=N it has at least N bytes.
artifact_holds() {
  local file=/workspace/$1 content check; shift
  [ -f "$file" ] && [ ! -L "$file" ] || { echo "$file is not a regular file"; return 1; }
  content=$(cat "$file"; printf x)
  content=\${content%x}
  for check in "$@"; do
    case $check in
      +*) [[ $content == *"\${check:1}"* ]] || { echo "$file lacks \${check:1}"; return 1; } ;;
      -*) [[ $content != *"\${check:1}"* ]] || { echo "$file contains \${check:1}"; return 1; } ;;
      '>='*) [ "$(wc -c <"$file")" -ge "\${check:2}" ] || { echo "$file is under \${check:2} bytes"; return 1; } ;;
    esac
  done
}

# The starting files the agent may not change are still there, unchanged.
protected_intact() { (cd /workspace && sha256sum --quiet --strict -c /tests/${PROTECTED_LIST}); }
`;

export interface TestScriptInput {
  taskId: string;
  taskVersion: string;
  checks: readonly ExportedCheck[];
  /** Whether tests/PROTECTED_LIST lists any file. */
  protectsFiles: boolean;
}

export function testScript(o: TestScriptInput): string {
  const lines = [
    '#!/bin/bash',
    `# agent-bench task ${o.taskId} (version ${o.taskVersion}), exported by \`agent-bench task export --format harbor\`.`,
    "# Harbor's verifier sees only the files the agent left, so this runs the task's outcome checks;",
    '# the flags judged on the trace (reads, test runs seen before a change, the order of commands) and',
    '# flags.ts checks are left out: README.md lists them. Reward 1 when every check below holds, else 0.',
    PRELUDE,
    ...o.checks.map(checkLine),
    ...(o.protectsFiles ? ['verdict protected_files protected_intact'] : []),
    '',
    'if [ "$failed" -eq 0 ]; then echo 1 >/logs/verifier/reward.txt; else echo 0 >/logs/verifier/reward.txt; fi',
    '',
  ];
  return lines.join('\n');
}

function checkLine(c: ExportedCheck): string {
  const q = shellQuote;
  switch (c.kind) {
    case 'pytest':
    case 'node:test': {
      const fn = c.kind === 'pytest' ? 'pytest_passes' : 'node_test_passes';
      return `verdict ${q(c.flag)} ${fn} ${c.tests ?? '-'} ${c.targets.map(q).join(' ')}`;
    }
    case 'command':
      return `verdict ${q(c.flag)} exits_with ${c.exitCode} ${q(c.command)}`;
    case 'artifact': {
      const checks = [
        ...c.contains.map((s) => `+${s}`),
        ...c.notContains.map((s) => `-${s}`),
        ...(c.minBytes === undefined ? [] : [`>=${c.minBytes}`]),
      ];
      return `verdict ${q(c.flag)} artifact_holds ${[c.file, ...checks].map(q).join(' ')}`;
    }
  }
}
