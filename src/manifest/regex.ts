/**
 * Manifest regular expressions. Published manifests were written for Python's `re.search`, so the
 * Python spellings JavaScript lacks are accepted: leading inline flags (`(?i)`, `(?is)`; `x` is
 * ignored) and named groups `(?P<name>...)`. A manifest's pattern runs on text the model wrote, so
 * it is matched in linear time by RE2 (util/linear-regex.ts), and a pattern that needs what RE2
 * lacks (a backreference, lookaround) is refused when the manifest is loaded.
 */
import { LinearRegExp, RegexSyntaxError } from '../util/linear-regex.js';

/** The manifest pattern compiled; throws RegexSyntaxError where regexProblem gives a reason. */
export function toRegExp(source: string): LinearRegExp {
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  const body = inline === null ? source : source.slice(inline[0].length);
  return new LinearRegExp(body, (inline?.[1] ?? '').replace(/x/g, ''));
}

/** null when the source compiles, else the reason, in one line. */
export function regexProblem(source: string): string | null {
  try {
    toRegExp(source);
    return null;
  } catch (err) {
    if (err instanceof RegexSyntaxError) return err.message;
    throw err;
  }
}
