/**
 * The harness's mutation run: the agent's tests, run (as the checker) on copies of the workspace
 * in which the implementation was swapped for one the task knows is wrong. One bash script, one
 * exec, whatever the number of mutants: validate runs it for every scripted run of a task.
 *
 * A mutant replaces only what it defines. In Python its definitions are appended to the agent's
 * module (the later `def` wins); in an ES module the agent's module moves aside and the mutant
 * re-exports everything else of it (`export *` never re-exports a name the module exports itself).
 * So helpers the agent's tests import from the module are still there, and a test fails on a
 * mutant only because of what the mutant changed, never because a name went missing.
 */
import { posix } from 'node:path';
import { shellQuote } from '../manifest/shell-quote.js';
import { CHECKER_HOME } from '../sandbox/types.js';
import type { HarnessRun } from '../scoring/check-helpers.js';
import { HIDDEN_DIR } from '../tasks/types.js';
import { InternalError } from '../util/errors.js';

/** A wrong implementation of the task's module: what the agent's tests must fail on. */
interface Mutant {
  /** Says what is wrong with it, in the verdict (`no_padding`, `unsorted`). */
  id: string;
  /** Its hidden file (relative to HIDDEN_DIR); absent: the module removed, as before the agent wrote it. */
  file?: string;
}

/** What a task's mutation check runs: the agent's tests, against each mutant of its module. */
export interface MutationPlan {
  /** The implementation, workspace-relative (versions.py, pages.mjs): `.py` or `.mjs`. */
  module: string;
  /** The function the tests are about; an ES module's default export that is it is swapped too. */
  subject: string;
  /** The harness's run of the agent's tests (harnessPytest, harnessNodeTest). */
  tests: HarnessRun;
  mutants: readonly Mutant[];
}

/** The module as it was before the agent wrote it: missing. */
export const MODULE_MISSING: Mutant = { id: 'module_missing' };

/** Mutants from the task's hidden/mutants/<id><the module's extension>. */
export function hiddenMutants(module: string, ids: readonly string[]): Mutant[] {
  return ids.map((id) => ({ id, file: `mutants/${id}${posix.extname(module)}` }));
}

/**
 * Bounds one run of the tests on one copy. The suites take about a second, several on a loaded
 * machine; a mutant makes none of them loop, so a run that takes this long is the tests' own doing.
 */
export const RUN_TIMEOUT_SEC = 30;
/** What a run killed at RUN_TIMEOUT_SEC exits with (timeout -s KILL). */
export const RUN_KILLED = 137;
/** Where the copies are made (the checker's own tmpfs: the staged copy is read-only to it). */
const COPY_ROOT = `${CHECKER_HOME}/mutation`;
/** The run on the agent's own module, in a copy made as the mutants' are. */
export const AGENT_RUN = 'agent';
const IDS = /^[a-z][a-z0-9_]*$/;

/**
 * The script: a first line `mutation <nonce>`, then one line `<nonce> <id> <exit code>` per run
 * (AGENT_RUN first), or `<nonce> <id> copy-failed`. The tests' own output goes to /dev/null, and
 * the nonce (read from /dev/urandom when the script starts) keeps them from printing a verdict.
 */
export function mutationScript(plan: MutationPlan): string {
  checkPlan(plan);
  const module = shellQuote(plan.module);
  const lines = [
    'set -u',
    'export PYTHONDONTWRITEBYTECODE=1',
    // No run needs a third-party pytest plugin, and finding them is most of pytest's start-up.
    'export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1',
    `src=$PWD; base=${shellQuote(COPY_ROOT)}; w="$base/workspace"; m="$w"/${module}`,
    "nonce=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \\n')",
    'echo "mutation $nonce"',
    'fresh() { rm -rf "$base" && mkdir -p "$w" && cp -R "$src/." "$w/"; }',
    // The tests see nothing of the harness: no stdin, their output thrown away, a bounded time.
    `run() { (cd "$w" && exec timeout -s KILL ${RUN_TIMEOUT_SEC} bash -c ${shellQuote(plan.tests.command)}) </dev/null >/dev/null 2>&1; echo "$nonce $1 $?"; }`,
    `if fresh; then run ${AGENT_RUN}; else echo "$nonce ${AGENT_RUN} copy-failed"; fi`,
    ...plan.mutants.map((mutant) => {
      const swap = swapIn(plan, mutant);
      return `if fresh && ${swap}; then run ${mutant.id}; else echo "$nonce ${mutant.id} copy-failed"; fi`;
    }),
    'rm -rf "$base"',
  ];
  return lines.join('\n');
}

/** The commands that put the mutant in place of the agent's module in the fresh copy at $w. */
function swapIn(plan: MutationPlan, mutant: Mutant): string {
  if (mutant.file === undefined) return 'rm -rf "$m"';
  const file = shellQuote(`${HIDDEN_DIR}/${mutant.file}`);
  if (plan.module.endsWith('.py'))
    return `{ cat "$m" 2>/dev/null; printf '\\n\\n'; cat ${file}; } > "$base/next" && mv -f "$base/next" "$m"`;
  const aside = `.agent-${posix.basename(plan.module)}`;
  const from = JSON.stringify(`./${aside}`);
  const header = [
    `export * from ${from};`,
    `import * as agent from ${from};`,
    `export default agent.default === agent.${plan.subject} ? ${plan.subject} : agent.default;`,
  ];
  const moved = shellQuote(posix.join(posix.dirname(plan.module), aside));
  return `mv -f "$m" "$w"/${moved} && { printf '%s\\n' ${header.map(shellQuote).join(' ')}; cat ${file}; } > "$m"`;
}

/**
 * A plan the script cannot run is the task author's mistake, not the model's: an InternalError at the
 * first check, so the task's oracle fails `validate`.
 */
function checkPlan(plan: MutationPlan): void {
  const fail = (problem: string): never => {
    throw new InternalError(`mutation plan for ${plan.module}: ${problem}`);
  };
  if (!/^(?!\/)(?!.*\.\.)[\w./-]+\.(py|mjs)$/.test(plan.module))
    fail('the module must be a workspace-relative .py or .mjs file');
  if (!/^[A-Za-z_$][\w$]*$/.test(plan.subject)) fail(`the subject ${plan.subject} is not a name`);
  if (plan.mutants.length === 0) fail('no mutants');
  const bad = plan.mutants.find((m) => !IDS.test(m.id) || m.id === AGENT_RUN);
  if (bad !== undefined) fail(`the mutant id ${bad.id} is not a lower-case name (or is ${AGENT_RUN})`);
  if (new Set(plan.mutants.map((m) => m.id)).size !== plan.mutants.length) fail('two mutants share an id');
}
