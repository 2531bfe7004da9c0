/**
 * Manifest regular expressions. Published manifests were written for Python's `re.search`, so the
 * two Python spellings JavaScript lacks are accepted: leading inline flags (`(?i)`, `(?is)`) and
 * named groups `(?P<name>...)`.
 */
export function toRegExp(source: string): RegExp {
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  let body = inline === null ? source : source.slice(inline[0].length);
  const flags = [...new Set((inline?.[1] ?? '').replace('x', ''))].join('');
  body = body
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>');
  return new RegExp(body, flags);
}

/** null when the source compiles, else the reason it does not. */
export function regexProblem(source: string): string | null {
  try {
    toRegExp(source);
    return null;
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message}`;
  }
}
