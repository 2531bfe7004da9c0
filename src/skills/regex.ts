/**
 * Manifest regular expressions. Published manifests were written for Python's `re.search`, so the
 * two Python spellings JavaScript lacks are accepted: leading inline flags (`(?i)`, `(?is)`) and
 * named groups `(?P<name>...)`. A manifest's pattern runs on text the model wrote, so every match
 * is time-bounded (util/bounded-regex.ts), and the shape that backtracks exponentially is refused
 * when the manifest is loaded.
 */
import { BoundedRegExp } from '../util/bounded-regex.js';

export function toRegExp(source: string): BoundedRegExp {
  return new BoundedRegExp(jsRegExp(source), source);
}

function jsRegExp(source: string): RegExp {
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  let body = inline === null ? source : source.slice(inline[0].length);
  const flags = [...new Set((inline?.[1] ?? '').replace('x', ''))].join('');
  body = body
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>');
  return new RegExp(body, flags);
}

/** null when the source compiles and has no nested quantifier, else the reason. */
export function regexProblem(source: string): string | null {
  let re: RegExp;
  try {
    re = jsRegExp(source);
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message}`;
  }
  return nestedQuantifierProblem(re.source);
}

/**
 * The classic catastrophic shape, found without running anything: a group repeated without bound
 * (`*`, `+`, `{n,}`) whose body itself repeats without bound, as in `(a+)+` or `(\s*\w+)*`. A
 * bounded outer repetition (`(<tr[\s\S]*?){13}`) is allowed: at worst polynomial, and the time bound
 * still holds. Cheap and conservative: a body that can split a text only one way (`(?:\s+\S+)*`) is
 * refused too; such a pattern can be written without the outer repetition.
 */
export function nestedQuantifierProblem(source: string): string | null {
  const groups: { start: number; repeats: boolean }[] = [];
  let repeats = false; // the innermost open group (or the top level) has an unbounded quantifier
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(source, i);
    else if (c === '(') {
      groups.push({ start: i, repeats });
      repeats = false;
    } else if (c === ')') {
      const group = groups.pop();
      if (group === undefined) continue;
      const outer = unboundedQuantifierAt(source, i + 1);
      if (outer > 0 && repeats) {
        const text = source.slice(group.start, i + 1 + outer);
        return `nested quantifier ${text}: a repeated group whose body also repeats can take exponential time on some texts; write it without the outer repetition`;
      }
      repeats = group.repeats || repeats || outer > 0;
    } else if (unboundedQuantifierAt(source, i) > 0) repeats = true;
  }
  return null;
}

/** The length of an unbounded quantifier (`*`, `+`, `{n,}`) starting at `i`, else 0. */
function unboundedQuantifierAt(source: string, i: number): number {
  const c = source[i];
  if (c === '*' || c === '+') return 1;
  if (c !== '{') return 0;
  const m = /^\{\d+,\}/.exec(source.slice(i, i + 16));
  return m === null ? 0 : m[0].length;
}

/** The index of the `]` closing the class opened at `open`. */
function classEnd(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length;
}
