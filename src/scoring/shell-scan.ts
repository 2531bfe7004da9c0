/** Scanning helpers of the shell lexer: find where a quoted or bracketed region ends. */

/** Index of the `'` closing the single-quoted string opened at `open`, or src.length. */
export function skipQuoted(src: string, open: number): number {
  const end = src.indexOf("'", open + 1);
  return end < 0 ? src.length : end;
}

/** Index of the `"` closing the double-quoted string opened at `open`, or src.length. */
function skipDoubleQuoted(src: string, open: number): number {
  let i = open + 1;
  while (i < src.length && src[i] !== '"') i += src[i] === '\\' ? 2 : 1;
  return Math.min(i, src.length);
}

/**
 * Index of the bracket closing the `(` or `{` at `open`, skipping quoted text and nested pairs;
 * src.length when it never closes.
 */
export function findClosing(src: string, open: number): number {
  const opener = src[open];
  const closer = opener === '{' ? '}' : ')';
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === "'" && opener === '(') i = skipQuoted(src, i);
    else if (c === '"') i = skipDoubleQuoted(src, i);
    else if (c === '`') {
      const end = src.indexOf('`', i + 1);
      i = end < 0 ? src.length : end;
    } else if (c === opener) depth++;
    else if (c === closer && --depth === 0) return i;
  }
  return src.length;
}
