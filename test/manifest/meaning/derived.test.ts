/**
 * derived_from: numbers recomputed from the input's rows (formulas, groups, filters), found where the
 * artifact shows them in any usual format, and judged to the places shown; a wrong number, a
 * missing one and a changed one are named with what the data gives.
 */
import { describe, expect, it } from 'vitest';
import { applyAggregate, parseAggregate } from '../../../src/manifest/meaning/aggregate.js';
import { expectedNumbers } from '../../../src/manifest/meaning/derived-values.js';
import { type MeaningCheck, meaningProblem } from '../../../src/manifest/meaning/meaning-checks.js';
import { numbersAfter, parseShown, showsValue } from '../../../src/manifest/meaning/shown-numbers.js';
import { readTable } from '../../../src/manifest/meaning/table-input.js';

const SALES = 'region,units,price\nnorth,12,149\nsouth,7,320\nnorth,18,99.5\n"we,st",3,1250\n';

describe('inputs', () => {
  it('reads CSV with quoted fields, CRLF and a BOM, and JSON arrays of objects', () => {
    const t = readTable('a.csv', '\ufeffname,note\r\n"Smith, J.","said ""hi"""\r\nLee,\r\n');
    expect(t).toEqual({
      columns: ['name', 'note'],
      rows: [
        { name: 'Smith, J.', note: 'said "hi"' },
        { name: 'Lee', note: '' },
      ],
    });
    expect(readTable('a.json', '[{"a": 1, "b": "x"}, {"a": 2.5}]')).toEqual({
      columns: ['a', 'b'],
      rows: [{ a: '1', b: 'x' }, { a: '2.5' }],
    });
  });

  it('says why an input is no table', () => {
    expect(readTable('a.csv', 'a,b\n1\n')).toBe('record 2 has 1 fields, the header 2');
    expect(readTable('a.csv', 'a\n"open\n')).toBe('a quoted field is never closed');
    expect(readTable('a.json', '{"a": 1}')).toMatch(/array of objects/);
    expect(readTable('a.txt', 'x')).toMatch(/no CSV or JSON/);
  });
});

describe('formulas', () => {
  const rows = (readTable('s.csv', SALES) as { rows: Record<string, string>[] }).rows;
  const value = (f: string) => {
    const a = parseAggregate(f);
    if (typeof a === 'string') throw new Error(a);
    return applyAggregate(a, rows);
  };

  it('count, sum, mean, min and max of arithmetic over columns', () => {
    expect(value('count')).toBe(4);
    expect(value('count()')).toBe(4);
    expect(value('sum(units * price)')).toBe(12 * 149 + 7 * 320 + 18 * 99.5 + 3 * 1250);
    expect(value('mean(units)')).toBe(10);
    expect(value('max(-units + 1)')).toBe(-2);
    expect(value('min((units - 1) / 2)')).toBe(1);
  });

  it('refuses what does not parse, in one line naming the formula', () => {
    expect(parseAggregate('total(units)')).toMatch(/^"total\(units\)": write count, or sum/);
    expect(parseAggregate('sum(units *)')).toBe('"sum(units *)": unexpected end');
    expect(parseAggregate('sum((units)')).toMatch(/never closed|unexpected/);
    expect(parseAggregate('sum(units % 2)')).toMatch(/cannot read "% 2\)"/);
  });

  it('names a cell that is no number', () => {
    const a = parseAggregate('sum(region)');
    expect(typeof a !== 'string' && applyAggregate(a, rows)).toBe(
      'region is "north" in a row, which is no number',
    );
  });
});

describe('expected values', () => {
  it('one per group of `by`, in order, with the group in the label or pointer, and `where` filtering', () => {
    const values = [
      { label: 'REGION {region}', value: 'sum(units * price)', by: 'region' },
      { at: '/units/{region}', value: 'sum(units)', by: 'region', where: { region: ['north', 'we,st'] } },
    ].map((v) => ({ ...v, aggregate: parseAggregate(v.value) as never }));
    expect(expectedNumbers('s.csv', SALES, values)).toEqual([
      {
        place: { label: 'REGION north' },
        value: 3579,
        tolerance: 0,
        how: 'sum(units * price) for region = north',
      },
      {
        place: { label: 'REGION south' },
        value: 2240,
        tolerance: 0,
        how: 'sum(units * price) for region = south',
      },
      {
        place: { label: 'REGION we,st' },
        value: 3750,
        tolerance: 0,
        how: 'sum(units * price) for region = we,st',
      },
      {
        place: { pointer: '/units/north' },
        value: 30,
        tolerance: 0,
        how: 'sum(units) for region = north or we,st, region = north',
      },
      {
        place: { pointer: '/units/we,st' },
        value: 3,
        tolerance: 0,
        how: 'sum(units) for region = north or we,st, region = we,st',
      },
    ]);
  });

  it('names a column the input does not have', () => {
    const values = [{ label: 'X', value: 'sum(qty)', aggregate: parseAggregate('sum(qty)') as never }];
    expect(expectedNumbers('s.csv', SALES, values)).toBe(
      'no column "qty" (its columns: region, units, price)',
    );
  });
});

describe('numbers as shown', () => {
  it('reads separators, signs and currency, and not a number that runs into letters', () => {
    expect(parseShown('1,234.50')).toEqual({ text: '1,234.50', value: 1234.5, decimals: 2 });
    expect(parseShown('−7')?.value).toBe(-7);
    expect(parseShown('$30,882')?.value).toBe(30882);
    expect(parseShown('30\u202f882')?.value).toBe(30882);
    expect(parseShown('31k')).toBeNull();
  });

  it('finds the number after each place a label stands, as words of its own', () => {
    const text =
      'ROWS=12 | Total: $30,882.00 | **total** 30882 | Total by region east 6,917 | reopened 3 open: 5';
    expect(numbersAfter(text, 'total').map((n) => n.value)).toEqual([30882, 30882]);
    expect(numbersAfter(text, 'REGION east').map((n) => n.text)).toEqual(['6,917']);
    expect(numbersAfter(text, 'open').map((n) => n.value)).toEqual([5]);
    expect(numbersAfter('balance = -5', 'balance')[0]?.value).toBe(-5);
    expect(numbersAfter('east - 6917', 'east')[0]?.value).toBe(6917);
  });

  it('shows a value rounded to the places it shows, either way at a tie, or within the tolerance', () => {
    const s = (t: string) => parseShown(t) ?? { text: t, value: Number.NaN, decimals: 0 };
    expect(showsValue(s('1234.5'), 1234.5, 0)).toBe(true);
    expect(showsValue(s('1,234.50'), 1234.5, 0)).toBe(true);
    expect(showsValue(s('1235'), 1234.5, 0)).toBe(true);
    expect(showsValue(s('1234'), 1234.5, 0)).toBe(true);
    expect(showsValue(s('1233'), 1234.5, 0)).toBe(false);
    expect(showsValue(s('12.35'), 12.345678, 0)).toBe(true);
    expect(showsValue(s('12.34'), 12.345678, 0)).toBe(false);
    expect(showsValue(s('30883'), 30882, 0)).toBe(false);
    expect(showsValue(s('30880'), 30882, 5)).toBe(true);
  });
});

describe('the derived_from check', () => {
  const check: MeaningCheck = {
    kind: 'derived_from',
    input: 'data/sales.csv',
    formulas: [],
    expected: [
      { place: { label: 'TOTAL' }, value: 30882, tolerance: 0, how: 'sum(units * price)' },
      {
        place: { label: 'REGION east' },
        value: 6917,
        tolerance: 0,
        how: 'sum(units * price) for region = east',
      },
    ],
  };

  it('passes the numbers in any format and markup', () => {
    expect(meaningProblem('summary.txt', 'REGION east=6917\nTOTAL=30882\n', check)).toBeNull();
    expect(
      meaningProblem(
        'report.html',
        '<table><tr><th>Region</th><th>Amount</th></tr><tr><td>East</td></tr><tr><td>Region east</td><td>$6,917.00</td></tr></table><p><strong>Total:</strong> 30,882</p>',
        check,
      ),
    ).toBeNull();
  });

  it('names a number changed by one and a number missing, with what the data gives', () => {
    expect(meaningProblem('summary.txt', 'REGION east=6918\nTOTAL=30882\n', check)).toBe(
      'summary.txt: "REGION east" shows 6918 (data/sales.csv gives 6917: sum(units * price) for region = east)',
    );
    expect(meaningProblem('summary.txt', 'TOTAL=30882 TOTAL=30883', check)).toMatch(
      /"TOTAL" shows 30883 .*; no number after "REGION east"/,
    );
  });

  it('reads a JSON artifact at its pointers: numbers, numeric strings, nothing else', () => {
    const json: MeaningCheck = {
      ...check,
      expected: [
        { place: { pointer: '/total' }, value: 24, tolerance: 0, how: 'count' },
        { place: { pointer: '/by_team/we~1st' }, value: 3, tolerance: 0, how: 'count for team = we/st' },
      ],
    };
    expect(meaningProblem('s.json', '{"total": 24, "by_team": {"we/st": "3"}}', json)).toBeNull();
    expect(meaningProblem('s.json', '{"total": 25, "by_team": {}}', json)).toBe(
      's.json: /total is 25 (data/sales.csv gives 24: count); nothing at /by_team/we~1st (data/sales.csv gives 3: count for team = we/st)',
    );
    expect(meaningProblem('s.json', '{"total": "many"}', json)).toMatch(/\/total holds "many", no number/);
    expect(meaningProblem('s.json', 'not json', json)).toMatch(/^s\.json is not valid JSON/);
  });
});
