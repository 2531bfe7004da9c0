/**
 * Tokens to the shell's grammar of lists: `a; b & c`, and-or chains `a && b || c`, pipelines
 * `! a | b`, and `( ... )` subshells. Compound commands (if, while, for, { }) are left to the
 * walker, which sees their keywords as words. Never throws on malformed input.
 */
import type { Redirect, Token, Word } from './shell-words.js';

export type CommandNode =
  | { kind: 'simple'; words: Word[]; redirects: Redirect[] }
  | { kind: 'subshell'; body: AndOr[] };

export interface Pipeline {
  negated: boolean;
  commands: CommandNode[];
}

export interface AndOr {
  pipelines: Pipeline[];
  /** ops[i] joins pipelines[i] and pipelines[i + 1]. */
  ops: ('&&' | '||')[];
  background: boolean;
}

export function parseTokens(tokens: readonly Token[]): AndOr[] {
  return new Parser(tokens).list(false);
}

class Parser {
  private i = 0;
  private readonly tokens: readonly Token[];
  constructor(tokens: readonly Token[]) {
    this.tokens = tokens;
  }

  private peekOp(): string | null {
    const t = this.tokens[this.i];
    return t?.kind === 'op' ? t.op : null;
  }

  private skipNewlines(): void {
    while (this.peekOp() === '\n') this.i++;
  }

  list(inSubshell: boolean): AndOr[] {
    const out: AndOr[] = [];
    while (this.i < this.tokens.length) {
      const op = this.peekOp();
      if (op === ';' || op === '\n' || op === '&') this.i++;
      else if (op === ')') {
        if (inSubshell) break;
        this.i++;
      } else {
        const andOr = this.andOr();
        if (andOr.pipelines.length > 0) out.push(andOr);
        const after = this.peekOp();
        if (after === '&') andOr.background = true;
        if (after === '&' || after === ';' || after === '\n') this.i++;
      }
    }
    return out;
  }

  private andOr(): AndOr {
    const result: AndOr = { pipelines: [], ops: [], background: false };
    const first = this.pipeline();
    if (first !== null) result.pipelines.push(first);
    for (let op = this.peekOp(); op === '&&' || op === '||'; op = this.peekOp()) {
      this.i++;
      this.skipNewlines();
      const next = this.pipeline();
      if (next === null) break;
      if (result.pipelines.length > 0) result.ops.push(op);
      result.pipelines.push(next);
    }
    return result;
  }

  private pipeline(): Pipeline | null {
    let negated = false;
    for (
      let t = this.tokens[this.i];
      t?.kind === 'word' && !t.word.quoted && t.word.text === '!';
      t = this.tokens[this.i]
    ) {
      negated = !negated;
      this.i++;
    }
    const commands: CommandNode[] = [];
    const first = this.command();
    if (first !== null) commands.push(first);
    while (this.peekOp() === '|') {
      this.i++;
      this.skipNewlines();
      const next = this.command();
      if (next !== null) commands.push(next);
    }
    return commands.length === 0 ? null : { negated, commands };
  }

  private command(): CommandNode | null {
    if (this.peekOp() === '(') {
      this.i++;
      const body = this.list(true);
      if (this.peekOp() === ')') this.i++;
      while (this.tokens[this.i]?.kind === 'redirect') this.i++;
      return { kind: 'subshell', body };
    }
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let t = this.tokens[this.i]; t !== undefined && t.kind !== 'op'; t = this.tokens[this.i]) {
      if (t.kind === 'word') words.push(t.word);
      else redirects.push({ op: t.op, fd: t.fd, target: t.target, heredoc: t.heredoc });
      this.i++;
    }
    if (words.length === 0 && redirects.length === 0) {
      // A stray operator (`| x`, `&& y` at the start): step over it so parsing goes on.
      if (this.i < this.tokens.length && this.peekOp() !== ')') this.i++;
      return null;
    }
    return { kind: 'simple', words, redirects };
  }
}
