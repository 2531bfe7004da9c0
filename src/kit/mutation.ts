/**
 * Tests that can fail: the agent's tests must pass on its own implementation and fail on every
 * wrong one the task declares (its mutants, and the module missing as it was at the start). An
 * assertion wrapped in `try/except: pass`, an assertion of `f(x) == f(x)`, a test that returns
 * before it checks anything: each passes on a wrong implementation as well, and fails this.
 *
 * The threshold is all of them: each task's mutants are plain mistakes (a flipped result, a missing
 * case, parts compared as text) that any suite testing the rules of its instruction catches, so
 * one that survives is a rule the tests do not check. The AST audits stay in front, as a fast
 * first filter with a precise message.
 */
import type { ExecResult } from '../sandbox/types.js';
import { groundTruthPasses } from '../scoring/check-helpers.js';
import type { CheckContext, FlagOutcome } from '../tasks/types.js';
import { AGENT_RUN, type MutationPlan, mutationScript, RUN_KILLED, RUN_TIMEOUT_SEC } from './mutation-run.js';

export { hiddenMutants, MODULE_MISSING, type MutationPlan } from './mutation-run.js';

/** What the mutation run says: the mutants the tests failed on (killed) and those they passed. */
export type MutationScore =
  | { ok: true; killed: string[]; survived: string[] }
  | { ok: false; problem: string };

/** A test runner's exit codes that mean "the tests failed" (not a timeout, not a usage error). */
const FAILED: Readonly<Record<string, readonly number[]>> = {
  // 1: tests failed; 2: interrupted, e.g. the module (or a name of it) could not be imported.
  pytest: [1, 2],
  'node:test': [1],
};

/** Reads the script's report (mutationScript): exit codes by run, or what went wrong. */
export function readMutationRun(plan: MutationPlan, r: ExecResult): MutationScore {
  if (r.timedOut || r.exitCode !== 0) return { ok: false, problem: 'the mutation run did not finish' };
  const [first, ...rest] = r.stdout.split('\n');
  const nonce = /^mutation ([0-9a-f]{24})$/.exec(first ?? '')?.[1];
  if (nonce === undefined) return { ok: false, problem: 'the mutation run did not start' };
  const codes = new Map<string, string>();
  for (const line of rest) {
    const [mark, id, code] = line.split(' ');
    if (mark !== nonce || id === undefined || code === undefined) continue;
    if (codes.has(id)) return { ok: false, problem: `the mutation run reported ${id} twice` };
    codes.set(id, code);
  }
  const agent = codes.get(AGENT_RUN);
  if (agent !== '0') return { ok: false, problem: agentRunProblem(agent) };
  const failed = FAILED[plan.tests.runner] ?? [1];
  const killed: string[] = [];
  const survived: string[] = [];
  for (const { id } of plan.mutants) {
    const code = codes.get(id);
    if (code === undefined || code === 'copy-failed')
      return { ok: false, problem: `the mutant ${id} could not be put in place` };
    if (Number(code) === RUN_KILLED)
      return {
        ok: false,
        problem: `the tests did not finish within ${RUN_TIMEOUT_SEC}s on the mutant ${id}`,
      };
    (failed.includes(Number(code)) ? killed : survived).push(id);
  }
  return { ok: true, killed, survived };
}

function agentRunProblem(code: string | undefined): string {
  if (code === 'copy-failed') return 'the workspace could not be copied for the mutation run';
  if (code === undefined) return 'the mutation run did not run the tests';
  if (Number(code) === RUN_KILLED)
    return `the tests did not finish within ${RUN_TIMEOUT_SEC}s on the agent's own implementation`;
  return "the agent's tests fail on its own implementation in a copy of the workspace";
}

/**
 * The flag outcome: the harness run of the agent's tests passes, and they fail on every mutant.
 * The score is the detail either way ("killed 5/5 wrong implementations").
 */
export async function mutantsKilled(
  ctx: Pick<CheckContext, 'groundTruth'>,
  plan: MutationPlan,
): Promise<FlagOutcome> {
  if (!(await groundTruthPasses(ctx, plan.tests)))
    return {
      reached: false,
      detail: "the agent's tests do not pass on its own implementation: a wrong one is no different",
    };
  const score = readMutationRun(plan, await ctx.groundTruth.run(mutationScript(plan)));
  if (!score.ok) return { reached: false, detail: score.problem };
  const total = plan.mutants.length;
  const detail = `killed ${score.killed.length}/${total} wrong implementations`;
  return score.survived.length === 0
    ? { reached: true, turn: null, detail }
    : { reached: false, detail: `${detail}; the tests pass on: ${score.survived.join(', ')}` };
}
