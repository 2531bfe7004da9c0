import { describe, expect, it } from 'vitest';
import {
  harnessNodeTest,
  harnessPytest,
  hiddenMutants,
  MODULE_MISSING,
  type MutationPlan,
  readMutationRun,
} from '../../src/kit/index.js';
import { mutationScript, RUN_KILLED } from '../../src/kit/mutation-run.js';
import type { ExecResult } from '../../src/sandbox/types.js';
import { InternalError } from '../../src/util/errors.js';
import { mutationStdout, NONCE } from '../tasks/mutation-report.js';

const plan: MutationPlan = {
  module: 'versions.py',
  subject: 'compare_versions',
  tests: harnessPytest('test_*.py'),
  mutants: [MODULE_MISSING, ...hiddenMutants('versions.py', ['flipped', 'unpadded'])],
};

const result = (stdout: string, exitCode: number | null = 0, timedOut = false): ExecResult => ({
  exitCode,
  stdout,
  stderr: '',
  stdoutCutBytes: 0,
  stderrCutBytes: 0,
  timedOut,
  elapsedMs: 0,
});

const read = (codes: ReadonlyArray<readonly [string, string | number]>, p: MutationPlan = plan) =>
  readMutationRun(p, result(mutationStdout(codes)));

describe('readMutationRun', () => {
  it("scores the runs: pytest's 1 (failed) and 2 (interrupted) kill, any other exit survives", () => {
    expect(
      read([
        ['agent', 0],
        ['module_missing', 2],
        ['flipped', 1],
        ['unpadded', 5],
      ]),
    ).toEqual({ ok: true, killed: ['module_missing', 'flipped'], survived: ['unpadded'] });
    expect(
      read([
        ['agent', 0],
        ['module_missing', 2],
        ['flipped', 0],
        ['unpadded', 4],
      ]),
    ).toEqual({ ok: true, killed: ['module_missing'], survived: ['flipped', 'unpadded'] });
  });

  it("node's test runner kills with 1 only", () => {
    const node = { ...plan, module: 'pages.mjs', tests: harnessNodeTest('pages.test.mjs') };
    expect(
      read(
        [
          ['agent', 0],
          ['module_missing', 1],
          ['flipped', 2],
          ['unpadded', 1],
        ],
        node,
      ),
    ).toEqual({ ok: true, killed: ['module_missing', 'unpadded'], survived: ['flipped'] });
  });

  it("the tests must pass on the agent's own module in the copy", () => {
    expect(read([['agent', 1]])).toEqual({
      ok: false,
      problem: "the agent's tests fail on its own implementation in a copy of the workspace",
    });
    expect(read([['agent', 'copy-failed']])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('could not be copied'),
    });
    expect(read([['agent', RUN_KILLED]])).toMatchObject({
      ok: false,
      problem: expect.stringContaining('did not finish within'),
    });
    expect(read([])).toMatchObject({ ok: false });
  });

  it('a mutant with no verdict, not put in place, or out of time is no score', () => {
    const agent = ['agent', 0] as const;
    expect(read([agent, ['module_missing', 2], ['flipped', 1]])).toMatchObject({
      ok: false,
      problem: 'the mutant unpadded could not be put in place',
    });
    expect(read([agent, ['module_missing', 2], ['flipped', 1], ['unpadded', 'copy-failed']])).toMatchObject({
      ok: false,
    });
    expect(read([agent, ['module_missing', 2], ['flipped', RUN_KILLED], ['unpadded', 1]])).toMatchObject({
      ok: false,
      problem: 'the tests did not finish within 30s on the mutant flipped',
    });
  });

  it('only lines with the nonce of the first line count, each once', () => {
    const forged = `${mutationStdout([
      ['agent', 0],
      ['module_missing', 2],
    ])}ffffffffffffffffffffffff flipped 1\n${NONCE.replace('0', '1')} unpadded 1\n`;
    expect(readMutationRun(plan, result(forged))).toMatchObject({ ok: false });
    expect(
      read([
        ['agent', 0],
        ['module_missing', 2],
        ['flipped', 1],
        ['unpadded', 1],
        ['flipped', 0],
      ]),
    ).toEqual({ ok: false, problem: 'the mutation run reported flipped twice' });
    const noHeader = mutationStdout([['agent', 0]])
      .split('\n')
      .slice(1)
      .join('\n');
    expect(readMutationRun(plan, result(noHeader))).toEqual({
      ok: false,
      problem: 'the mutation run did not start',
    });
  });

  it('a script that failed or timed out is no score', () => {
    const all = mutationStdout([
      ['agent', 0],
      ['module_missing', 2],
      ['flipped', 1],
      ['unpadded', 1],
    ]);
    expect(readMutationRun(plan, result(all)).ok).toBe(true);
    expect(readMutationRun(plan, result(all, 1)).ok).toBe(false);
    expect(readMutationRun(plan, result(all, 0, true)).ok).toBe(false);
    expect(readMutationRun(plan, result(all, null)).ok).toBe(false);
  });
});

describe('mutationScript', () => {
  it('runs the tests once on the agent’s module and once per mutant, from the hidden files', () => {
    const script = mutationScript(plan);
    expect(script).toContain("'/checks/hidden/mutants/flipped.py'");
    expect(script).toContain("'/checks/hidden/mutants/unpadded.py'");
    expect(script.match(/then run \w+;/g)).toEqual([
      'then run agent;',
      'then run module_missing;',
      'then run flipped;',
      'then run unpadded;',
    ]);
  });

  it.each([
    ['a module that is no .py or .mjs', { module: 'versions.ts' }],
    ['an absolute module', { module: '/workspace/versions.py' }],
    ['a module outside the workspace', { module: '../versions.py' }],
    ['a subject that is no name', { subject: 'a b' }],
    ['no mutants', { mutants: [] }],
    ['a mutant id that is no name', { mutants: [{ id: 'Not Valid' }] }],
    ['a mutant named as the agent run', { mutants: [{ id: 'agent' }] }],
    ['two mutants of one id', { mutants: [MODULE_MISSING, MODULE_MISSING] }],
  ])('a plan with %s is the task author’s mistake', (_name, change) => {
    expect(() => mutationScript({ ...plan, ...change })).toThrow(InternalError);
  });
});
