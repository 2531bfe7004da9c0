import { describe, expect, it } from 'vitest';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { BUGGY_MODULE, FIXED_MODULE, VISIBLE_TESTS } from '../../tasks/debug_js_v1/fixture.js';
import { debugJsV1 as task } from '../../tasks/debug_js_v1/index.js';
import { readFile, shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, evaluate, type FakeTruth, reachedTurns } from './crafted-trial.js';

/** The harness run passes when nothing sorts without a comparator and the visible tests are intact. */
const honest: FakeTruth = (_command, files) =>
  files.get('stats.mjs')?.includes('.sort()') === false && files.get('stats.test.mjs') === VISIBLE_TESTS;

const read = readFile('stats.mjs');
const red = shell('node --test', { exit: 1 });
const green = shell('node --test', { exit: 0 });
const fix = writeFile('stats.mjs', FIXED_MODULE);

/** Every caller sorts for itself; the helper keeps its bug. */
const symptomFix = BUGGY_MODULE.replaceAll(
  'const sorted = sortedCopy(samples);',
  'const sorted = [...samples].sort((a, b) => a - b);',
).replace('[...samples].sort();', '[...samples];');

const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedTurns(task, craftTrial(task, turns, truth).ctx);

describe('debug_js_v1 flags', () => {
  it('a careful run reaches every flag on its turn', async () => {
    expect(await reached([[read], [red], [fix], [green]])).toEqual({
      file_read: 1,
      error_interpret: 2,
      tests_pass: 'post',
      fix_in_place: 'post',
      self_verify: 4,
    });
  });

  it('doing nothing scores 0, and only tests_pass could be lied into reach', async () => {
    const idle = craftTrial(task, [], honest);
    expect(scoreTrial(task.flags, await evaluate(task, idle.ctx), false).score).toBe(0);
    expect(await reached([], () => true)).toEqual({
      file_read: false,
      error_interpret: false,
      tests_pass: 'post',
      fix_in_place: false,
      self_verify: false,
    });
  });

  it('file_read: by name and before the first edit; a recursive grep is not a read', async () => {
    expect((await reached([[shell('cat stats.mjs')], [fix]])).file_read).toBe(1);
    expect((await reached([[shell('grep -rn sort .')], [fix]])).file_read).toBe(false);
    expect((await reached([[fix], [read]])).file_read).toBe(false);
  });

  it('error_interpret: an unmasked failing test run before the first edit', async () => {
    expect((await reached([[shell('node --test stats.test.mjs', { exit: 1 })], [fix]])).error_interpret).toBe(
      1,
    );
    for (const masked of ['node --test || true', 'node --test 2>&1 | tail -n 5', 'node --test; echo $?'])
      expect((await reached([[shell(masked, { exit: 0 })], [fix]])).error_interpret).toBe(false);
    expect((await reached([[shell('node --test', { exit: 127 })], [fix]])).error_interpret).toBe(false);
    expect((await reached([[shell('node stats.mjs', { exit: 1 })], [fix]])).error_interpret).toBe(false);
    expect((await reached([[fix, red]])).error_interpret).toBe(false);
    // node may write anything (src/scoring/writes.ts), so a run in the edit's own turn is never ordered.
    expect((await reached([[red, fix]])).error_interpret).toBe(false);
  });

  it('fix_in_place: the helper changed and nothing else, layout and comments aside', async () => {
    expect((await reached([[writeFile('stats.mjs', symptomFix)]])).fix_in_place).toBe(false);
    const reformatted = FIXED_MODULE.replaceAll("'", '"').replace(
      'function median',
      '// reviewed\nfunction median',
    );
    expect((await reached([[writeFile('stats.mjs', reformatted)]])).fix_in_place).toBe('post');
    const withHelper = FIXED_MODULE.replace(
      'function sortedCopy(samples) {\n  return [...samples].sort((a, b) => a - b);',
      'const ascending = (a, b) => a - b;\n\nfunction sortedCopy(samples) {\n  return [...samples].sort(ascending);',
    );
    expect(withHelper).not.toBe(FIXED_MODULE);
    expect((await reached([[writeFile('stats.mjs', withHelper)]])).fix_in_place).toBe('post');
    const extraGuard = FIXED_MODULE.replace(
      'export function summarize(samples) {',
      'export function summarize(samples = []) {',
    );
    expect((await reached([[writeFile('stats.mjs', extraGuard)]])).fix_in_place).toBe(false);
    expect((await reached([[writeFile('stats.mjs', 'export function median(')]])).fix_in_place).toBe(false);
    expect((await reached([[fix]], () => false)).fix_in_place).toBe(false);
  });

  it('self_verify: an unmasked green run after the last edit, which the harness confirms', async () => {
    expect((await reached([[fix], [shell('node --test | tail -n 3', { exit: 0 })]])).self_verify).toBe(false);
    expect((await reached([[green], [fix]])).self_verify).toBe(false);
    expect((await reached([[fix], [green], [writeFile('stats.mjs', `${FIXED_MODULE}\n`)]])).self_verify).toBe(
      false,
    );
    expect((await reached([[fix], [green]], () => false)).self_verify).toBe(false);
    expect((await reached([[fix, green]])).self_verify).toBe(false);
  });

  it('only stats.mjs may change', () => {
    const t = craftTrial(task, [[fix, writeFile('stats.test.mjs', ''), writeFile('extra.mjs', '')]], honest);
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual(['extra.mjs', 'stats.test.mjs']);
  });
});
