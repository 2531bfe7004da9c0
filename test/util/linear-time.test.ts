/**
 * The harness's own regular expressions outside skills/ and evidence/ (model names, the bundled
 * tasks' checks) on ~100 KB inputs built to make a backtracking form rescan the
 * rest from every position: each must return, with the answer its check gives. The forms they
 * replaced took from 0.3 s (a quadratic scan with a cheap step) to 40 s on these inputs; the
 * per-test timeout is no speed target, only what turns
 * such a regression into a failure.
 */
import { describe, expect, it } from 'vitest';
import { parseModelName } from '../../src/discovery/model-name.js';
import { upToLast } from '../../src/util/up-to-last.js';
import { accentChanged, navAdded, titleChanged } from '../../tasks/big_file_edit_v1/flags.js';
import { parseEnv } from '../../tasks/doc_trap_v1/flags.js';
import { judgeStep, PLACEHOLDER, TABLE, TEMPLATE } from '../tasks/long-procedure-steps.js';

const N = 100_000;
const RETURNS = { timeout: 10_000 };
/** A character `.` does not match without the `s` flag, placed where it made `$` fail. */
const LS = '\u2028';

describe('harness input', () => {
  it('a model name of many `@`', RETURNS, () => {
    expect(parseModelName(`m${'@'.repeat(N)}${LS}x`).family).toBe('m');
  });
});

describe("the bundled tasks' checks on a page the model wrote", () => {
  it('upToLast cuts after the last closer, or to nothing', () => {
    expect(upToLast('a;b;c', /;/g)).toBe('a;b;');
    expect(upToLast('<T>x</TITLE> y', /<\/title>/gi)).toBe('<T>x</TITLE>');
    expect(upToLast('abc', /;/g)).toBe('');
  });

  it('big_file_edit: openings that never close', RETURNS, () => {
    expect(titleChanged('<title>'.repeat(N / 7))).toBe('0 title elements');
    expect(accentChanged(`--accent:${'\t'.repeat(N)}`)).toBe('0 --accent declarations');
    expect(accentChanged('--accent:'.repeat(N / 9))).toBe('0 --accent declarations');
    expect(navAdded('<ul id="nav">'.repeat(N / 13))).toBe('0 nav lists');
  });

  it('long_procedure: a report table of rows and cells that never open', RETURNS, async () => {
    const report = (table: string) => judgeStep(3, TEMPLATE.replace(PLACEHOLDER, table));
    expect(await report(TABLE)).toBeNull();
    expect(await report(`<table>${'<tr<'.repeat(N / 4)}</tr></table>`)).toBe(
      'the table rows are not the top eight',
    );
    expect(await report(`<table><tr>${'<td<'.repeat(N / 4)}</td></tr></table>`)).toBe(
      'the table rows are not the top eight',
    );
  });

  it('doc_trap: an env line of a key and a long run of spaces', RETURNS, () => {
    expect(parseEnv(`A=${'\t'.repeat(N)}x${LS}y`)?.get('A')).toEqual([`x${LS}y`]);
  });
});
