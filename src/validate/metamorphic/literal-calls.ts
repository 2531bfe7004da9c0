/**
 * The calls a test file makes of a named function with literal arguments only (`parse("1h")`,
 * `mean([1, 2, 3])`): the inputs a hard-coded answer needs. A scan of the text, not a parse: it
 * skips string literals and comments and keeps the calls whose arguments, strings aside, are
 * numbers, brackets and the language's constants. A call it cannot read whole is left out, which
 * only makes the table it feeds smaller.
 */

export type CallLanguage = 'python' | 'js';

/** One call's argument list, as written (`"1h", 2`): a literal in the test file's language. */
export interface LiteralCall {
  fn: string;
  args: string;
}

const CONSTANTS: Record<CallLanguage, RegExp> = {
  python: /\b(?:True|False|None)\b/g,
  js: /\b(?:true|false|null|undefined|Infinity|NaN)\b/g,
};

/** What is left of a literal argument list once its strings and constants are gone. */
const LITERAL_REST = /^[\s\d.,+\-[\](){}:_]*$/;

/** Every distinct literal-only call of `names` in `text`, in order of first appearance. */
export function literalCalls(text: string, names: readonly string[], lang: CallLanguage): LiteralCall[] {
  const code = blanked(text, lang);
  const out: LiteralCall[] = [];
  const seen = new Set<string>();
  for (const fn of names) {
    const call = new RegExp(`(?<![\\w.$])${escaped(fn)}\\s*\\(`, 'g');
    for (const m of code.matchAll(call)) {
      const before = code.slice(Math.max(0, m.index - 12), m.index);
      // Its definition is no call of it.
      if (/\b(?:def|function)\s+$/.test(before)) continue;
      const open = m.index + m[0].length;
      const close = matching(code, open);
      if (close === null) continue;
      const args = text.slice(open, close).trim();
      if (args === '' || /\n\s*\n/.test(args) || args.includes('${')) continue;
      const rest = blanked(args, lang).replace(/"+/g, ' ').replace(CONSTANTS[lang], ' ');
      if (!LITERAL_REST.test(rest) || /[=]/.test(rest)) continue;
      const key = `${fn}(${args})`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ fn, args });
    }
  }
  return out;
}

/**
 * `text` with every string literal's content and every comment replaced by `"` and spaces (same
 * length, newlines kept), so brackets and names inside them are never read as code.
 */
function blanked(text: string, lang: CallLanguage): string {
  const out = [...text];
  let i = 0;
  const blank = (from: number, to: number, quoteMarks: boolean) => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== '\n') out[k] = quoteMarks ? '"' : ' ';
  };
  while (i < text.length) {
    const c = text[i] as string;
    const lineComment = lang === 'python' ? c === '#' : text.startsWith('//', i);
    if (lineComment) {
      const end = text.indexOf('\n', i);
      const to = end === -1 ? text.length : end;
      blank(i, to, false);
      i = to;
      continue;
    }
    if (lang === 'js' && text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      const to = end === -1 ? text.length : end + 2;
      blank(i, to, false);
      i = to;
      continue;
    }
    if (c === '"' || c === "'" || (lang === 'js' && c === '`')) {
      const triple = lang === 'python' && text.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let k = i + quote.length;
      while (k < text.length && !text.startsWith(quote, k)) {
        if (text[k] === '\\') k++;
        else if (!triple && c !== '`' && text[k] === '\n') break;
        k++;
      }
      const to = Math.min(text.length, k + quote.length);
      blank(i, to, true);
      i = to;
      continue;
    }
    i++;
  }
  return out.join('');
}

/** The index of the `)` closing the bracket opened just before `from`, in blanked code; null when none. */
function matching(code: string, from: number): number | null {
  let depth = 1;
  for (let i = from; i < code.length; i++) {
    const c = code[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return c === ')' ? i : null;
    }
  }
  return null;
}

function escaped(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
