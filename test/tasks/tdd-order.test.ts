import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { AGENT_TESTS, IMPLEMENTATION } from '../../tasks/tdd_order_v1/fixture.js';
import { tddOrderV1 as task } from '../../tasks/tdd_order_v1/index.js';
import { shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth, reachedTurns } from './crafted-trial.js';

/** Own tests pass with tests and the implementation present; the contract passes with the implementation. */
const honest: FakeTruth = (command, files) =>
  files.get('slugify.py') === IMPLEMENTATION &&
  (command.includes('contract') || files.has('test_slugify.py'));

const tests = writeFile('test_slugify.py', AGENT_TESTS);
const impl = writeFile('slugify.py', IMPLEMENTATION);
const collectionError = shell('python3 -m pytest -q', { exit: 2 });
const failing = shell('python3 -m pytest -q', { exit: 1 });
const green = shell('python3 -m pytest -q', { exit: 0 });

const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedTurns(task, craftTrial(task, turns, truth).ctx);

describe('tdd_order_v1 flags', () => {
  it('tests, red, code, green reaches every flag', async () => {
    expect(await reached([[tests], [collectionError], [impl], [green]])).toEqual({
      test_first: 1,
      red_observed: 2,
      tests_pass: 'post',
    });
  });

  it('the wrong order reaches only the outcome', async () => {
    expect(await reached([[impl], [tests], [green]])).toEqual({
      test_first: false,
      red_observed: false,
      tests_pass: 'post',
    });
  });

  it('doing nothing scores 0, and the process flags stay unreached even if ground truth lied', async () => {
    const idle = craftTrial(task, [], honest);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([], () => true)).toMatchObject({ test_first: false, red_observed: false });
  });

  it('test_first: inside one turn, write order counts; an opaque command writing both is ambiguous', async () => {
    expect((await reached([[tests, impl]])).test_first).toBe(1);
    expect((await reached([[impl, tests]])).test_first).toBe(false);
    const both = { 'test_slugify.py': AGENT_TESTS, 'slugify.py': IMPLEMENTATION };
    const inOrder = {
      call: shell('cp /tmp/t.py test_slugify.py && cp /tmp/s.py slugify.py'),
      effects: { write: both },
    };
    expect((await reached([[inOrder]])).test_first).toBe(1);
    const reversed = {
      call: shell('cp /tmp/s.py slugify.py; cp /tmp/t.py test_slugify.py'),
      effects: { write: both },
    };
    expect((await reached([[reversed]])).test_first).toBe(false);
    const opaque = { call: shell('python3 /tmp/scaffold.py'), effects: { write: both } };
    expect((await reached([[opaque]])).test_first).toBe(false);
    expect((await reached([[tests]])).test_first).toBe(false);
  });

  it('red_observed: a failure between the tests and the code, unmasked', async () => {
    expect((await reached([[tests], [failing], [impl]])).red_observed).toBe(2);
    expect((await reached([[tests], [impl], [failing]])).red_observed).toBe(false);
    expect((await reached([[collectionError], [tests], [impl]])).red_observed).toBe(false);
    expect(
      (await reached([[tests], [shell('python3 -m pytest -q; echo $?', { exit: 0 })], [impl]])).red_observed,
    ).toBe(false);
    expect(
      (await reached([[tests], [shell('python3 -m pytest -q || true', { exit: 0 })], [impl]])).red_observed,
    ).toBe(false);
    expect(
      (await reached([[tests], [shell('python3 -m pytest -q nothere.py', { exit: 4 })], [impl]]))
        .red_observed,
    ).toBe(false);
  });

  it('red_observed: same-turn runs count by call order', async () => {
    expect((await reached([[tests, collectionError, impl]])).red_observed).toBe(1);
    expect((await reached([[tests], [impl, failing]])).red_observed).toBe(false);
    expect((await reached([[collectionError, tests], [impl]])).red_observed).toBe(false);
  });

  it('tests_pass: needs the agent’s tests and the hidden contract to pass', async () => {
    const noContract: FakeTruth = (command, files) => !command.includes('contract') && honest(command, files);
    expect((await reached([[tests], [collectionError], [impl]], noContract)).tests_pass).toBe(false);
    const noOwn: FakeTruth = (command, files) => command.includes('contract') && honest(command, files);
    expect((await reached([[tests], [collectionError], [impl]], noOwn)).tests_pass).toBe(false);
  });

  it('only slugify.py and top-level test files may be created', () => {
    const t = craftTrial(
      task,
      [[tests, impl, writeFile('conftest.py', ''), writeFile('tests/test_x.py', '')]],
      honest,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual([
      'conftest.py',
      'tests/test_x.py',
    ]);
  });
});
