/**
 * Regular expressions the harness did not write (a manifest's patterns, a JSON schema's `pattern`s)
 * run on text the model wrote, so they are matched by RE2 (re2js, pure JavaScript): time linear in
 * the text whatever the pattern, so no pattern can backtrack and no match needs a time bound.
 * Patterns keep JavaScript's syntax: RE2JS.translateRegExp rewrites what RE2 spells otherwise
 * (`\uXXXX`, `\cX`, `[^]`, `(?<name>`) with JavaScript's meaning. The constructs RE2 lacks, because
 * they cannot be matched in linear time, are refused by name when the pattern is compiled.
 *
 * Where the answer differs from a JavaScript RegExp (without the `u` flag) on the same pattern:
 * `.` also matches `\r`, U+2028 and U+2029, and one astral character (not half of it); with `m`,
 * `^` and `$` stop only at `\n`; `\s` is ASCII whitespace `[\t\n\f\r ]` (no `\v`, no-break or other
 * Unicode spaces); `i` folds case by Unicode's simple folding (the Kelvin sign matches `k`);
 * `\p{L}` is a Unicode class, not the text `p{L}`; a counted repetition may not exceed 1000.
 */
import { RE2JS } from 're2js';

const FLAG_BITS = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL } as const;
type Flag = keyof typeof FLAG_BITS;

/** A pattern RE2 cannot run, or one that does not parse; its message is one line. */
export class RegexSyntaxError extends Error {}

/** A compiled pattern; `test` takes time linear in the text. */
export class LinearRegExp {
  readonly #re: RE2JS;
  /** The pattern as RE2 reads it (JavaScript's spelling where the two agree). */
  readonly source: string;
  /** Some of `i`, `m`, `s`, with JavaScript's meaning. */
  readonly flags: string;

  /** Throws RegexSyntaxError for a pattern RE2 cannot run. */
  constructor(jsSource: string, flags = '') {
    const unsupported = unsupportedConstruct(jsSource);
    if (unsupported !== null) throw new RegexSyntaxError(unsupported);
    const known = [...new Set(flags)].filter((f): f is Flag => f in FLAG_BITS);
    this.source = RE2JS.translateRegExp(jsSource);
    this.flags = known.sort().join('');
    try {
      this.#re = RE2JS.compile(
        this.source,
        known.reduce((bits, f) => bits | FLAG_BITS[f], 0),
      );
    } catch (err) {
      const reason = (err as Error).message.replace(/^error parsing regexp: /, '');
      throw new RegexSyntaxError(`invalid regular expression: ${reason}`);
    }
  }

  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean {
    return this.#re.test(text);
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

const LOOKAROUND: Record<string, string> = {
  '(?=': 'lookahead',
  '(?!': 'negative lookahead',
  '(?<=': 'lookbehind',
  '(?<!': 'negative lookbehind',
};

/**
 * The first construct RE2 lacks in a JavaScript pattern (backreferences `\1` `\k<name>` `(?P=name)`,
 * lookahead and lookbehind), as a one-line reason; null when there is none.
 */
export function unsupportedConstruct(source: string): string | null {
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '[') i = classEnd(source, i);
    else if (c === '\\') {
      const next = source.slice(i, i + 3);
      if (/^\\[1-9]/.test(next) || next === '\\k<')
        return refusal(backreferenceAt(source, i), 'backreferences');
      i++;
    } else if (c === '(') {
      const opening = Object.keys(LOOKAROUND).find((o) => source.startsWith(o, i));
      if (opening !== undefined) return refusal(`${LOOKAROUND[opening]} ${opening}`, 'lookaround');
      if (source.startsWith('(?P=', i)) return refusal(backreferenceAt(source, i), 'backreferences');
    }
  }
  return null;
}

function refusal(construct: string, family: string): string {
  return `${construct} is not supported: patterns run on RE2, which has no ${family} (they cannot be matched in linear time)`;
}

function backreferenceAt(source: string, i: number): string {
  const m = /^(?:\\\d+|\\k<[^>]*>|\(\?P=[^)]*\))/.exec(source.slice(i, i + 80));
  return `backreference ${m?.[0] ?? source.slice(i, i + 3)}`;
}

/** The index of the `]` closing the class opened at `open` (JavaScript: `[]` is an empty class). */
function classEnd(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length;
}
