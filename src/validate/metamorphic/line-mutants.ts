/**
 * Mutants of the lines a reference changed: the plain mistakes a wrong fix makes (a comparison off
 * by one, a flipped operator, a constant off by one, a wrong return value, the line left out). Only
 * changed lines are mutated, so each mutant undoes part of the work the task asked for; strings and
 * comments are masked first, so a mutant changes code, never the text inside a literal.
 */
import { diffLines } from 'diff';

export interface LineMutant {
  /** 1-based line of the file as the reference left it. */
  line: number;
  /** What was done: `<= → <`, `1 → 2`, `return None`, `deleted`. */
  what: string;
  content: string;
}

type Lang = 'python' | 'js';

/** Mutants per file at most, spread over its changed lines: enough to find a check that tries one input. */
const MAX_PER_FILE = 12;

export function languageOf(path: string): Lang | null {
  if (/\.py$/.test(path)) return 'python';
  if (/\.(m|c)?(j|t)sx?$/.test(path)) return 'js';
  return null;
}

/** The changed lines' mutants of `after` (the file as the reference left it) against `before`. */
export function lineMutants(before: string | null, after: string, lang: Lang): LineMutant[] {
  const lines = after.split('\n');
  const prose = blockCommentLines(lines, lang);
  const all: LineMutant[] = [];
  for (const n of changedLines(before ?? '', after)) {
    if (prose.has(n)) continue;
    const text = lines[n - 1] ?? '';
    for (const m of mutationsOf(text, lang)) {
      const mutated = [...lines];
      mutated[n - 1] = m.text;
      all.push({ line: n, what: m.what, content: mutated.join('\n') });
    }
  }
  return spread(all, MAX_PER_FILE);
}

/**
 * 1-based numbers of the lines inside block comments and docstrings (JS `/* … *\/`, Python
 * triple-quoted strings), where a "mutant" would change prose, not code.
 */
function blockCommentLines(lines: readonly string[], lang: Lang): Set<number> {
  const out = new Set<number>();
  const open = lang === 'python' ? /("""|''')/ : /\/\*/;
  const closes = (text: string, opener: string): boolean =>
    lang === 'python' ? text.includes(opener) : text.includes('*/');
  let inside: string | null = null;
  lines.forEach((line, i) => {
    if (inside !== null) {
      out.add(i + 1);
      if (closes(line, inside)) inside = null;
      return;
    }
    const m = open.exec(line);
    if (m === null) return;
    // A comment after code on its line is masked with the line; a docstring's lines are all prose.
    if (lang === 'python' || line.slice(0, m.index).trim() === '') out.add(i + 1);
    if (!closes(line.slice(m.index + m[0].length), m[0])) inside = m[0];
  });
  return out;
}

/** 1-based numbers of the lines of `after` that the change added or rewrote. */
function changedLines(before: string, after: string): number[] {
  const out: number[] = [];
  let line = 1;
  for (const part of diffLines(before, after)) {
    const count = part.count ?? 0;
    if (part.added) for (let i = 0; i < count; i++) out.push(line + i);
    if (!part.removed) line += count;
  }
  return out;
}

/** Every k-th mutant, so a long change is sampled over its whole length, not only its first lines. */
function spread<T>(all: readonly T[], max: number): T[] {
  if (all.length <= max) return [...all];
  const step = all.length / max;
  return Array.from({ length: max }, (_, i) => all[Math.floor(i * step)] as T);
}

const SWAPS: readonly (readonly [RegExp, string, string])[] = [
  [/(?<![=!<>])===(?!=)/, '!==', '=== → !=='],
  [/!==/, '===', '!== → ==='],
  [/(?<![=!<>])==(?!=)/, '!=', '== → !='],
  [/!=(?!=)/, '==', '!= → =='],
  [/<=/, '<', '<= → <'],
  [/>=/, '>', '>= → >'],
  [/(?<![<=-])<(?![<=])/, '<=', '< → <='],
  [/(?<![>=-])>(?![>=])/, '>=', '> → >='],
  [/\+=/, '-=', '+= → -='],
  [/-=/, '+=', '-= → +='],
  [/(?<![+\-*/%<>=!&|^])=(?![=>])/, '+=', '= → +='],
  [/ \+ /, ' - ', '+ → -'],
  [/ - /, ' + ', '- → +'],
  [/ \* /, ' + ', '* → +'],
  [/&&/, '||', '&& → ||'],
  [/\|\|/, '&&', '|| → &&'],
  [/\band\b/, 'or', 'and → or'],
  [/\bor\b/, 'and', 'or → and'],
  [/\bTrue\b/, 'False', 'True → False'],
  [/\bFalse\b/, 'True', 'False → True'],
  [/\btrue\b/, 'false', 'true → false'],
  [/\bfalse\b/, 'true', 'false → true'],
];

/** The line's mutations, each at one place of its code (never inside a string or a comment). */
function mutationsOf(text: string, lang: Lang): { text: string; what: string }[] {
  const masked = maskLiterals(text, lang);
  const code = masked.trim();
  if (code === '' || /^(import|from|export\s+\{|@)/.test(code)) return [];
  const out: { text: string; what: string }[] = [];
  for (const [re, by, what] of SWAPS) {
    const m = re.exec(masked);
    // A declaration's `=` is no assignment to add to (`const x += 1` only breaks the syntax).
    if (m === null || (what === '= → +=' && /^\s*(const|let|var)\b/.test(masked))) continue;
    out.push({ text: text.slice(0, m.index) + by + text.slice(m.index + m[0].length), what });
  }
  // Each integer constant of the line, one mutant each: a limit off by one anywhere in it.
  for (const number of masked.matchAll(/(?<![\w.])\d+(?![\w.])/g)) {
    const n = Number(number[0]);
    out.push({
      text: text.slice(0, number.index) + String(n + 1) + text.slice(number.index + number[0].length),
      what: `${n} → ${n + 1}`,
    });
  }
  const ret = /^(\s*)return\b\s*(.+?);?\s*$/.exec(masked);
  if (ret !== null && (ret[2] ?? '') !== '') {
    const none = lang === 'python' ? 'None' : 'undefined';
    out.push({ text: `${ret[1]}return ${none}${lang === 'js' ? ';' : ''}`, what: `return ${none}` });
  }
  // A block's opener or closer left out only breaks the syntax.
  if (isBlockLine(code, lang)) return out;
  const indent = /^\s*/.exec(text)?.[0] ?? '';
  out.push({ text: lang === 'python' ? `${indent}pass` : `${indent};`, what: 'deleted' });
  return out;
}

/** A line that opens or closes a block (deleting it only breaks the syntax). */
function isBlockLine(code: string, lang: Lang): boolean {
  if (lang === 'python') return /:$/.test(code) || /^(else|elif|except|finally|try)\b/.test(code);
  return /[{([]$/.test(code) || /^[})\]]/.test(code) || /^(else|case|default)\b/.test(code);
}

/**
 * The line with every string literal's contents and its comment replaced by spaces, the same
 * length, so a match's index in it is an index in the line.
 */
export function maskLiterals(text: string, lang: Lang): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== null) {
      if (c === '\\') {
        // The escaped character is the literal's too (a last backslash has none).
        out += text[i + 1] === undefined ? ' ' : '  ';
        i++;
      } else if (c === quote) {
        quote = null;
        out += c;
      } else out += ' ';
      continue;
    }
    const comment = lang === 'python' ? c === '#' : c === '/' && text[i + 1] === '/';
    if (comment) return out + ' '.repeat(text.length - i);
    if (c === '"' || c === "'" || c === '`') quote = c;
    out += c;
  }
  return out;
}

/** A test file by the runners' own conventions: test_x.py, x_test.py, x.test.mjs, x.spec.ts, a tests/ folder. */
export function isTestFile(path: string): boolean {
  return (
    /(^|\/)(tests?|__tests__)\//.test(path) ||
    /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(path) ||
    /\.(test|spec)\.[cm]?[jt]sx?$/.test(path)
  );
}
