/**
 * What the mutation script prints (src/kit/mutation-run.ts), for crafted trials whose ground
 * truth is a fake: the agent's run passes, and each mutant's tests fail unless named as survived.
 */

import type { MutationPlan } from '../../src/kit/index.js';
import type { ExecResult } from '../../src/sandbox/types.js';

export const NONCE = '0123456789abcdef01234567';

/** The script's stdout, from run id -> exit code (or `copy-failed`), in order. */
export function mutationStdout(codes: ReadonlyArray<readonly [string, string | number]>): string {
  return [`mutation ${NONCE}`, ...codes.map(([id, code]) => `${NONCE} ${id} ${code}`), ''].join('\n');
}

/** The script's result when the agent's run passes and the tests fail on all mutants but `survived`. */
export function mutationResult(plan: MutationPlan, survived: readonly string[] = []): ExecResult {
  const codes: [string, number][] = [
    ['agent', 0],
    ...plan.mutants.map((m): [string, number] => [m.id, survived.includes(m.id) ? 0 : 1]),
  ];
  return {
    exitCode: 0,
    stdout: mutationStdout(codes),
    stderr: '',
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    timedOut: false,
    elapsedMs: 0,
  };
}
