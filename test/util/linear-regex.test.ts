/**
 * LinearRegExp: JavaScript's syntax matched by RE2. Where RE2's answer differs from a RegExp's, the
 * difference is the one util/linear-regex.ts documents; these tests pin each one.
 */
import { describe, expect, it } from 'vitest';
import { LinearRegExp, RegexSyntaxError, unsupportedConstruct } from '../../src/util/linear-regex.js';

describe('a linear-time regular expression', () => {
  it("keeps JavaScript's spelling and meaning where RE2 spells it otherwise", () => {
    expect(new LinearRegExp('\\u0041\\x42').test('AB')).toBe(true);
    expect(new LinearRegExp('a[^]b').test('a\nb')).toBe(true);
    expect(new LinearRegExp('(?<word>\\w+)!').test('hi!')).toBe(true);
    expect(new LinearRegExp('<p>\\d+</p>').source).toBe('<p>\\d+<\\/p>');
    expect(new LinearRegExp('x', 'gimsy').flags).toBe('ims');
    expect(`${new LinearRegExp('a+', 'i')}`).toBe('/a+/i');
  });

  it('answers as a RegExp does on ASCII text, flags included', () => {
    const cases: [string, string, string][] = [
      ['^a.c$', '', 'abc'],
      ['^a.c$', '', 'a\nc'],
      ['^a.c$', 's', 'a\nc'],
      ['^b$', 'm', 'a\nb\nc'],
      ['^b$', '', 'a\nb\nc'],
      ['REPORT', 'i', 'report.sh'],
      ['\\bsh\\b', '', 'bash -c'],
      ['\\s+--title\\s\\S+', '', 'x  --title y'],
    ];
    for (const [source, flags, text] of cases)
      expect(new LinearRegExp(source, flags).test(text), `/${source}/${flags}`).toBe(
        new RegExp(source, flags).test(text),
      );
  });

  it('differs from a RegExp as documented: line ends, \\s, case folding, \\p', () => {
    expect(new LinearRegExp('^a.c$').test('a\rc')).toBe(true); // RegExp: false
    expect(new LinearRegExp('^b$', 'm').test('a\rb')).toBe(false); // RegExp: true
    expect(new LinearRegExp('^\\s$').test('\u00a0')).toBe(false); // RegExp: true
    expect(new LinearRegExp('^\\s$').test('\v')).toBe(false); // RegExp: true
    expect(new LinearRegExp('^k$', 'i').test('\u212a')).toBe(true); // RegExp: false
    expect(new LinearRegExp('^\\p{L}$').test('é')).toBe(true); // RegExp (no u): false
  });

  it('refuses what RE2 lacks, naming it, and what does not parse', () => {
    expect(() => new LinearRegExp('(a)\\1')).toThrow(RegexSyntaxError);
    expect(unsupportedConstruct('(?<=a)b')).toMatch(/^lookbehind \(\?<= is not supported/);
    expect(unsupportedConstruct('[(?=]\\(?!')).toBeNull();
    expect(() => new LinearRegExp('a{2000}')).toThrow(
      'invalid regular expression: invalid repeat count: `{2000}`',
    );
  });
});
