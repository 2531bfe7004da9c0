/**
 * A POSIX shell lexer, enough to see which programs a model's command line runs and on what:
 * quotes, escapes, line continuations, comments, redirections (with here-documents, whose bodies are
 * data, never commands) and `$(...)` / backquote / `<(...)` substitutions, whose sources are kept for
 * the parser. It never throws: unbalanced input lexes as far as it goes.
 */
import { findClosing, skipQuoted } from './shell-scan.js';

export interface Word {
  /** Text after quote removal; expansions (`$X`, `$(...)`) kept as written. */
  text: string;
  /** The text with every quoted or escaped special character backslash-escaped, for brace and glob expansion. */
  pattern: string;
  /** Holds an expansion whose value is unknown here: `$X`, `$(...)`, backquotes, a leading `~`. */
  dynamic: boolean;
  /** Some quoting or escaping was present (a quoted `if` is not a keyword). */
  quoted: boolean;
  /** Sources of the command substitutions inside the word. */
  substitutions: string[];
}

type ControlOp = ';' | '&' | '&&' | '||' | '|' | '\n' | '(' | ')';
type RedirectOp = '<' | '>' | '>>' | '>|' | '<>' | '<&' | '>&' | '&>' | '&>>' | '<<' | '<<-' | '<<<';

interface Redirect {
  op: RedirectOp;
  /** The explicit descriptor (`2>`), or null. */
  fd: number | null;
  target: Word | null;
  /** The body of a here-document. */
  heredoc: string | null;
}

export type Token =
  | { kind: 'word'; word: Word }
  | { kind: 'op'; op: ControlOp }
  | ({ kind: 'redirect' } & Redirect);

const META = new Set([' ', '\t', '\r', '\n', ';', '&', '|', '<', '>', '(', ')']);
const PATTERN_SPECIAL = new Set(['\\', '*', '?', '[', ']', '{', '}', ',']);
const REDIRECT_OPS: readonly RedirectOp[] = [
  '&>>',
  '&>',
  '<<<',
  '<<-',
  '<<',
  '<>',
  '<&',
  '<',
  '>>',
  '>|',
  '>&',
  '>',
];

class WordBuilder {
  text = '';
  pattern = '';
  dynamic = false;
  quoted = false;
  substitutions: string[] = [];
  /** An unquoted character: glob and brace characters keep their meaning. */
  plain(c: string): void {
    this.text += c;
    this.pattern += c;
  }
  /** A quoted or escaped character: always itself. */
  literal(c: string): void {
    this.text += c;
    this.pattern += PATTERN_SPECIAL.has(c) ? `\\${c}` : c;
    this.quoted = true;
  }
  expansion(raw: string): void {
    for (const c of raw) this.literal(c);
    this.dynamic = true;
  }
  build(): Word {
    const { text, pattern, dynamic, quoted, substitutions } = this;
    return { text, pattern, dynamic, quoted, substitutions };
  }
}

export function tokenize(src: string): Token[] {
  return new Lexer(src).run();
}

class Lexer {
  private pos = 0;
  private readonly tokens: Token[] = [];
  private readonly pending: { token: Redirect; delimiter: string; stripTabs: boolean }[] = [];
  private readonly src: string;
  constructor(src: string) {
    this.src = src;
  }

  run(): Token[] {
    const { src } = this;
    while (this.pos < src.length) {
      const c = src[this.pos] as string;
      const next = src[this.pos + 1];
      if (c === ' ' || c === '\t' || c === '\r') this.pos++;
      else if (c === '\\' && next === '\n') this.pos += 2;
      else if (c === '#') this.skipComment();
      else if (c === '\n') {
        this.pos++;
        this.tokens.push({ kind: 'op', op: '\n' });
        this.readHeredocs();
      } else if ((c === '<' || c === '>') && next === '(')
        this.tokens.push({ kind: 'word', word: this.readWord() });
      else if (
        c === '<' ||
        c === '>' ||
        (c === '&' && next === '>') ||
        /^\d+[<>]/.test(src.slice(this.pos, this.pos + 12))
      )
        this.readRedirect();
      else if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') this.readControl(c, next);
      else this.tokens.push({ kind: 'word', word: this.readWord() });
    }
    for (const h of this.pending) h.token.heredoc = '';
    return this.tokens;
  }

  private skipComment(): void {
    const nl = this.src.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.src.length : nl;
  }

  private readControl(c: string, next: string | undefined): void {
    let op: ControlOp;
    if (c === ';') op = ';';
    else if (c === '&') op = next === '&' ? '&&' : '&';
    else if (c === '|') op = next === '|' ? '||' : '|';
    else op = c as ControlOp;
    const doubled = (c === ';' && (next === ';' || next === '&')) || (c === '|' && next === '&');
    this.pos += op.length === 2 || doubled ? 2 : 1;
    this.tokens.push({ kind: 'op', op });
  }

  private readRedirect(): void {
    const digits = /^\d+/.exec(this.src.slice(this.pos));
    let fd: number | null = null;
    if (digits !== null && this.src[this.pos] !== '&') {
      fd = Number(digits[0]);
      this.pos += digits[0].length;
    }
    const op = REDIRECT_OPS.find((o) => this.src.startsWith(o, this.pos)) ?? '>';
    this.pos += op.length;
    while (this.src[this.pos] === ' ' || this.src[this.pos] === '\t') this.pos++;
    const at = this.src[this.pos];
    const target = at !== undefined && !META.has(at) ? this.readWord() : null;
    const token: Token & Redirect = { kind: 'redirect', op, fd, target, heredoc: null };
    this.tokens.push(token);
    if ((op === '<<' || op === '<<-') && target !== null) {
      this.pending.push({ token, delimiter: target.text, stripTabs: op === '<<-' });
    }
  }

  /** Here-document bodies start on the line after the one that opened them. */
  private readHeredocs(): void {
    const { src } = this;
    for (const h of this.pending.splice(0)) {
      const lines: string[] = [];
      while (this.pos < src.length) {
        const nl = src.indexOf('\n', this.pos);
        const end = nl < 0 ? src.length : nl;
        const raw = src.slice(this.pos, end);
        this.pos = end + 1;
        const line = h.stripTabs ? raw.replace(/^\t+/, '') : raw;
        if (line === h.delimiter) break;
        lines.push(line);
      }
      h.token.heredoc = lines.join('\n');
    }
    this.pos = Math.min(this.pos, src.length);
  }

  private readWord(): Word {
    const { src } = this;
    const b = new WordBuilder();
    if ((src[this.pos] === '<' || src[this.pos] === '>') && src[this.pos + 1] === '(') {
      const end = findClosing(src, this.pos + 1);
      b.substitutions.push(src.slice(this.pos + 2, end));
      b.expansion(src.slice(this.pos, end + 1));
      this.pos = end + 1;
    } else if (src[this.pos] === '~') {
      b.plain('~');
      b.dynamic = true;
      this.pos++;
    }
    while (this.pos < src.length) {
      const c = src[this.pos] as string;
      if (META.has(c)) break;
      if (c === '\\') this.readEscape(b);
      else if (c === "'") {
        const end = skipQuoted(src, this.pos);
        for (const ch of src.slice(this.pos + 1, end)) b.literal(ch);
        b.quoted = true;
        this.pos = end + 1;
      } else if (c === '"') this.readDoubleQuoted(b);
      else if (c === '$') this.readDollar(b, false);
      else if (c === '`') this.readBackquote(b);
      else {
        b.plain(c);
        this.pos++;
      }
    }
    return b.build();
  }

  private readEscape(b: WordBuilder): void {
    const next = this.src[this.pos + 1];
    if (next !== undefined && next !== '\n') b.literal(next);
    this.pos += 2;
  }

  private readDoubleQuoted(b: WordBuilder): void {
    const { src } = this;
    b.quoted = true;
    this.pos++;
    while (this.pos < src.length && src[this.pos] !== '"') {
      const c = src[this.pos] as string;
      const next = src[this.pos + 1];
      if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
        if (next !== '\n') b.literal(next);
        this.pos += 2;
      } else if (c === '$') this.readDollar(b, true);
      else if (c === '`') this.readBackquote(b);
      else {
        b.literal(c);
        this.pos++;
      }
    }
    this.pos++;
  }

  private readDollar(b: WordBuilder, inDoubleQuotes: boolean): void {
    const { src } = this;
    const start = this.pos;
    const next = src[start + 1];
    if (next === '(') {
      const end = findClosing(src, start + 1);
      // `$((...))` is arithmetic, not a command.
      if (src[start + 2] !== '(') b.substitutions.push(src.slice(start + 2, end));
      b.expansion(src.slice(start, end + 1));
      this.pos = end + 1;
    } else if (next === '{') {
      const end = findClosing(src, start + 1);
      b.expansion(src.slice(start, end + 1));
      this.pos = end + 1;
    } else if (next === "'" && !inDoubleQuotes) this.readAnsiC(b);
    else if (next === '"' && !inDoubleQuotes) this.pos++;
    else {
      const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(start + 1));
      if (name === null) {
        b.literal('$');
        this.pos++;
      } else {
        b.expansion(`$${name[0]}`);
        this.pos += 1 + name[0].length;
      }
    }
  }

  /** `$'...'`: backslash escapes as in C. */
  private readAnsiC(b: WordBuilder): void {
    const { src } = this;
    const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };
    this.pos += 2;
    b.quoted = true;
    while (this.pos < src.length && src[this.pos] !== "'") {
      const c = src[this.pos] as string;
      if (c === '\\' && this.pos + 1 < src.length) {
        const e = src[this.pos + 1] as string;
        b.literal(escapes[e] ?? e);
        this.pos += 2;
      } else {
        b.literal(c);
        this.pos++;
      }
    }
    this.pos++;
  }

  private readBackquote(b: WordBuilder): void {
    const { src } = this;
    let i = this.pos + 1;
    let inner = '';
    while (i < src.length && src[i] !== '`') {
      if (src[i] === '\\' && i + 1 < src.length && '`\\$'.includes(src[i + 1] as string)) i++;
      inner += src[i];
      i++;
    }
    b.substitutions.push(inner);
    b.expansion(src.slice(this.pos, i + 1));
    this.pos = i + 1;
  }
}
