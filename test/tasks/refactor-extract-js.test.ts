import { describe, expect, it } from 'vitest';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import { copySitesUseHelper, helperExported } from '../../tasks/refactor_extract_js_v1/extraction.js';
import {
  INVOICE,
  INVOICE_REFACTORED,
  MONEY,
  REFUND,
  REFUND_REFACTORED,
  VISIBLE_TESTS,
} from '../../tasks/refactor_extract_js_v1/fixture.js';
import { refactorExtractJsV1 as task } from '../../tasks/refactor_extract_js_v1/index.js';
import { readFile, shell, writeFile } from '../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, type FakeTruth, reachedTurns } from './crafted-trial.js';

/** The money tests pass with the reference helper; the billing tests with known-good versions of each module. */
const honest: FakeTruth = (command, files) => {
  const money = files.get('money.mjs') === MONEY;
  if (command.includes('money.hidden')) return money;
  const invoice = files.get('invoice.mjs');
  const refund = files.get('refund.mjs');
  return (
    files.get('billing.test.mjs') === VISIBLE_TESTS &&
    (invoice === INVOICE || (invoice === INVOICE_REFACTORED && money)) &&
    (refund === REFUND || (refund === REFUND_REFACTORED && money))
  );
};

const reads = [readFile('invoice.mjs'), readFile('refund.mjs')];
const green = shell('node --test', { exit: 0 });
const extract = [
  writeFile('money.mjs', MONEY),
  writeFile('invoice.mjs', INVOICE_REFACTORED),
  writeFile('refund.mjs', REFUND_REFACTORED),
];

const reached = (turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = honest) =>
  reachedTurns(task, craftTrial(task, turns, truth).ctx);

describe('refactor_extract_js_v1 flags', () => {
  it('read, green baseline, extract, green again reaches every flag', async () => {
    expect(await reached([reads, [green], extract, [green]])).toEqual({
      files_read: 1,
      baseline_green: 2,
      extracted: 'post',
      call_sites_use_it: 'post',
      behaviour_kept: 'post',
      self_verify: 4,
    });
  });

  it('doing nothing reaches no flag, even if ground truth lied', async () => {
    expect(Object.values(await reached([], () => true)).filter((v) => v !== false)).toEqual([]);
  });

  it('files_read: both modules, each before it changed', async () => {
    expect((await reached([[reads[0] ?? readFile('x')], extract])).files_read).toBe(false);
    expect((await reached([[shell('cat invoice.mjs refund.mjs')], extract])).files_read).toBe(1);
    expect((await reached([[readFile('invoice.mjs')], extract, [readFile('refund.mjs')]])).files_read).toBe(
      false,
    );
  });

  it('baseline_green: an unmasked passing run before any module changed', async () => {
    expect((await reached([reads, [shell('node --test', { exit: 1 })], extract])).baseline_green).toBe(false);
    expect(
      (await reached([reads, [shell('node --test | tail -3', { exit: 0 })], extract])).baseline_green,
    ).toBe(false);
    expect((await reached([reads, [writeFile('money.mjs', MONEY)], [green], extract])).baseline_green).toBe(
      false,
    );
    expect((await reached([reads, [green]])).baseline_green).toBe(false);
  });

  it('extracted: the export is a function and it passes the hidden tests of its role', async () => {
    const inOtherWords = [writeFile('money.mjs', MONEY)];
    expect((await reached([inOtherWords], () => false)).extracted).toBe(false);
    expect((await reached([inOtherWords])).extracted).toBe('post');
  });

  it('behaviour_kept: both modules changed, and the billing tests pass', async () => {
    const onlyInvoice = [writeFile('money.mjs', MONEY), writeFile('invoice.mjs', INVOICE_REFACTORED)];
    expect((await reached([onlyInvoice])).behaviour_kept).toBe(false);
    expect((await reached([extract], (c, f) => c.includes('money') && honest(c, f))).behaviour_kept).toBe(
      false,
    );
  });

  it('self_verify: an unmasked green run after the last change to any module', async () => {
    expect((await reached([extract, [shell('node --test; echo done', { exit: 0 })]])).self_verify).toBe(
      false,
    );
    expect(
      (await reached([[writeFile('money.mjs', MONEY)], [green], [extract[1] ?? green, extract[2] ?? green]]))
        .self_verify,
    ).toBe(false);
    expect((await reached([extract, [green]], () => false)).self_verify).toBe(false);
  });

  it('only the two modules and money.mjs may change', () => {
    const t = craftTrial(
      task,
      [[...extract, writeFile('billing.test.mjs', ''), writeFile('util.mjs', '')]],
      honest,
    );
    expect(detectTamper(t.setup, t.final, task).map((v) => v.path)).toEqual(['billing.test.mjs', 'util.mjs']);
  });
});

describe('the extraction on the syntax tree', () => {
  const files = (over: Record<string, string>) => {
    const all: Record<string, string> = {
      'money.mjs': MONEY,
      'invoice.mjs': INVOICE_REFACTORED,
      'refund.mjs': REFUND_REFACTORED,
      ...over,
    };
    return async (path: string) => all[path] ?? null;
  };

  it('accepts the reference, renamed exports, arrows, namespaces and module helpers', async () => {
    expect(await helperExported(files({}))).toEqual({ ok: true });
    expect(await copySitesUseHelper(files({}))).toEqual({ ok: true });
    const renamed = MONEY.replace('export function formatCents', 'function fmt').concat(
      'export { fmt as formatCents };\n',
    );
    expect(await helperExported(files({ 'money.mjs': renamed }))).toEqual({ ok: true });
    const arrow = 'export const formatCents = (cents) => `${cents}`;\n';
    expect(await helperExported(files({ 'money.mjs': arrow }))).toEqual({ ok: true });
    const namespace = REFUND_REFACTORED.replace(
      "import { formatCents } from './money.mjs';",
      "import * as money from './money.mjs';",
    ).replace('formatCents(-refund.cents)', 'money.formatCents(-refund.cents)');
    expect(await copySitesUseHelper(files({ 'refund.mjs': namespace }))).toEqual({ ok: true });
    const viaHelper = REFUND_REFACTORED.replace(
      '/** "Refund',
      'const negative = (cents) => formatCents(-cents);\n\n/** "Refund',
    ).replace('formatCents(-refund.cents)', 'negative(refund.cents)');
    expect(await copySitesUseHelper(files({ 'refund.mjs': viaHelper }))).toEqual({ ok: true });
  });

  it.each<[string, Record<string, string>, string]>([
    ['no money.mjs', { 'money.mjs': '' }, 'does not export'],
    ['a non-function export', { 'money.mjs': 'export const formatCents = 1;\n' }, 'does not export'],
    ['a syntax error', { 'money.mjs': 'export function formatCents(' }, 'does not parse'],
  ])('helperExported rejects %s', async (_name, over, problem) => {
    const verdict = await helperExported(files(over));
    expect(verdict.ok ? '' : verdict.problem).toContain(problem);
  });

  it.each<[string, Record<string, string>, string]>([
    ['an untouched module', { 'refund.mjs': REFUND }, 'refund.mjs does not import formatCents'],
    [
      'an import that is never called',
      {
        'refund.mjs': REFUND.replace(
          '/** "Refund',
          "import { formatCents } from './money.mjs';\n\n/** \"Refund",
        ),
      },
      'refundLine does not call formatCents',
    ],
    [
      'a site that calls it and still pads',
      {
        'invoice.mjs': INVOICE_REFACTORED.replace(
          'return `${item.name} x${item.qty}: ${formatCents(item.unitCents * item.qty)}`;',
          () =>
            'formatCents(0);\n  return `${item.name} x${item.qty}: $${(item.unitCents * item.qty / 100).toFixed(2)}`;',
        ),
      },
      'invoiceLine still formats money itself',
    ],
    [
      'a renamed site',
      { 'invoice.mjs': INVOICE_REFACTORED.replace('function invoiceTotal', 'function total') },
      'invoiceTotal is no longer a function',
    ],
    [
      'an import from elsewhere',
      { 'invoice.mjs': INVOICE_REFACTORED.replace("'./money.mjs'", "'./format.mjs'") },
      'invoice.mjs does not import formatCents',
    ],
  ])('copySitesUseHelper rejects %s', async (_name, over, problem) => {
    const verdict = await copySitesUseHelper(files(over));
    expect(verdict.ok ? '' : verdict.problem).toContain(problem);
  });
});
