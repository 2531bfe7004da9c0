/**
 * The variables a COPY heredoc with an unquoted delimiter expands, as BuildKit expands them: the
 * ARGs (their defaults: agent-bench passes no build args) and ENVs the Dockerfile sets in the stage,
 * a stage built FROM another inheriting that stage's ENVs. What the base image's own environment
 * holds is not known before the build, so a name the Dockerfile does not set cannot be expanded
 * here: the expansion says which (BuildKit would take it from the base image).
 */
import { words } from './dockerfile-parse.js';

/** The variables of every stage as the Dockerfile goes: FROM, ARG and ENV update them. */
export class BuildVariables {
  /** ARGs before the first FROM. */
  private global = new Map<string, string>();
  /** Each named stage's ENVs: what a stage built FROM it starts with. */
  private stages = new Map<string, Map<string, string>>();
  /** The current stage's ARGs and ENVs (a declared ARG without a default is ''); null before FROM. */
  private current: Map<string, string> | null = null;
  private currentEnv = new Map<string, string>();

  from(image: string, stage: string | null): void {
    const parent = this.stages.get(image.toLowerCase());
    this.currentEnv = new Map(parent ?? []);
    this.current = new Map(this.currentEnv);
    if (stage !== null) this.stages.set(stage.toLowerCase(), this.currentEnv);
  }

  arg(args: string): string | null {
    for (const word of words(args)) {
      const eq = word.indexOf('=');
      const name = eq < 0 ? word : word.slice(0, eq);
      if (this.current === null) {
        if (eq >= 0) {
          const v = this.expandValue(word.slice(eq + 1), this.global);
          if (!v.ok) return v.problem;
          this.global.set(name, v.text);
        } else this.global.set(name, this.global.get(name) ?? '');
        continue;
      }
      if (eq < 0) this.current.set(name, this.global.get(name) ?? this.current.get(name) ?? '');
      else {
        const v = this.expandValue(word.slice(eq + 1), this.current);
        if (!v.ok) return v.problem;
        this.current.set(name, v.text);
      }
    }
    return null;
  }

  env(args: string): string | null {
    if (this.current === null) return null;
    const ws = words(args);
    // The legacy form `ENV NAME value with spaces`.
    const pairs: [string, string][] =
      ws.length > 0 && !(ws[0] ?? '').includes('=')
        ? [[ws[0] ?? '', args.slice(args.indexOf(ws[0] ?? '') + (ws[0] ?? '').length).trim()]]
        : ws.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]);
    for (const [name, raw] of pairs) {
      const v = this.expandValue(raw, this.current);
      if (!v.ok) return v.problem;
      this.current.set(name, v.text);
      this.currentEnv.set(name, v.text);
    }
    return null;
  }

  /** A heredoc body expanded with the stage's variables (quotes and escapes kept as written). */
  expandBody(body: string): Expanded {
    return expand(body, this.current ?? this.global, { rawQuotes: true });
  }

  private expandValue(raw: string, vars: Map<string, string>): Expanded {
    return expand(raw, vars, { rawQuotes: false });
  }
}

export type Expanded = { ok: true; text: string } | { ok: false; problem: string };

/**
 * `$NAME`, `${NAME}`, `${NAME:-word}` and `${NAME:+word}` replaced; a backslash keeps the next
 * character as written. Names that are no environment variable (`$1`, `$@`) are empty, as in
 * BuildKit. With rawQuotes the quotes stay (a heredoc body); otherwise they are removed (an ENV value).
 */
function expand(text: string, vars: Map<string, string>, o: { rawQuotes: boolean }): Expanded {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (!o.rawQuotes && (c === '"' || c === "'") && (quote === null || quote === c)) {
      quote = quote === null ? c : null;
      continue;
    }
    if (c === '\\' && i + 1 < text.length && quote !== "'") {
      out += o.rawQuotes ? `\\${text[i + 1]}` : (text[i + 1] ?? '');
      i++;
      continue;
    }
    if (c !== '$' || quote === "'") {
      out += c;
      continue;
    }
    const ref = reference(text, i + 1);
    if (ref === null) {
      out += c;
      continue;
    }
    if (ref.problem !== undefined) return { ok: false, problem: ref.problem };
    const value = variableValue(ref.name, vars);
    if (value === null)
      return {
        ok: false,
        problem: `expands $${ref.name}, which the Dockerfile does not set (BuildKit would take it from the base image's environment)`,
      };
    let replaced = value;
    if (ref.op === ':-' && value === '') replaced = ref.word ?? '';
    if (ref.op === ':+') replaced = value === '' ? '' : (ref.word ?? '');
    out += replaced;
    i = ref.end - 1;
  }
  return { ok: true, text: out };
}

/** A special parameter or a digit name is never set in a build; an undeclared name is unknown (null). */
function variableValue(name: string, vars: Map<string, string>): string | null {
  if (/^(\d+|[@*#?$!0-])$/.test(name)) return '';
  return vars.get(name) ?? null;
}

interface Reference {
  name: string;
  op?: ':-' | ':+';
  word?: string;
  /** Index just past the reference. */
  end: number;
  problem?: string;
}

/** The variable reference starting at `at` (just past a `$`), or null when `$` is literal. */
function reference(text: string, at: number): Reference | null {
  if (text[at] !== '{') {
    const m = /^(\d+|[@*#?$!0-]|[A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(at));
    return m === null ? null : { name: m[1] ?? '', end: at + (m[1] ?? '').length };
  }
  const close = text.indexOf('}', at);
  if (close < 0) return null;
  const inner = text.slice(at + 1, close);
  const m = /^([A-Za-z_][A-Za-z0-9_]*|\d+)(?:(:[-+])(.*))?$/s.exec(inner);
  if (m === null)
    return { name: inner, end: close + 1, problem: `uses \${${inner}}, which agent-bench does not expand` };
  const ref: Reference = { name: m[1] ?? '', end: close + 1 };
  if (m[2] !== undefined) {
    ref.op = m[2] as ':-' | ':+';
    ref.word = m[3] ?? '';
  }
  return ref;
}
