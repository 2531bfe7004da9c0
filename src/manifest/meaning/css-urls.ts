/**
 * The URLs a stylesheet asks for, read by a small scanner that follows the CSS Syntax standard's
 * tokens where they matter: comments skipped, strings and identifiers with their escapes decoded
 * (`\75 rl(` is `url(`, `"\2f\2f cdn"` is `"//cdn"`), `url(…)` quoted or not, the string of an
 * `@import`, and the strings inside `image-set()`, `image()` and `src()`. `@namespace`'s URL names a
 * namespace and fetches nothing. Linear in the text: every step moves forward.
 */

/** Functions whose string arguments are URLs (besides `url`, which is read apart). */
const URL_FUNCTIONS = new Set(['url', 'src', 'image', 'image-set', '-webkit-image-set', '-webkit-image']);

interface Scan {
  css: string;
  at: number;
}

export function cssUrls(css: string): string[] {
  const s: Scan = { css, at: 0 };
  const out: string[] = [];
  const functions: string[] = [];
  let atRule: string | null = null;
  while (s.at < css.length) {
    const c = css[s.at] ?? '';
    if (css.startsWith('/*', s.at)) {
      const end = css.indexOf('*/', s.at + 2);
      s.at = end === -1 ? css.length : end + 2;
    } else if (c === '"' || c === "'") {
      const value = readString(s);
      if (value !== null && (URL_FUNCTIONS.has(functions.at(-1) ?? '') || atRule === 'import'))
        out.push(value);
    } else if (c === '@') {
      s.at++;
      atRule = readIdent(s).toLowerCase();
    } else if (startsIdent(css, s.at)) {
      const name = readIdent(s).toLowerCase();
      if (css[s.at] !== '(') continue;
      s.at++;
      const url = name === 'url' ? readUnquotedUrl(s) : null;
      if (url !== null) {
        if (atRule !== 'namespace') out.push(url);
      } else functions.push(name);
    } else {
      if (c === '(') functions.push('');
      else if (c === ')') functions.pop();
      else if (c === ';' || c === '{' || c === '}') atRule = null;
      s.at++;
    }
  }
  return out;
}

const isHex = (c: string): boolean => /^[0-9A-Fa-f]$/.test(c);
const isNameChar = (c: string): boolean => /^[A-Za-z0-9_-]$/.test(c) || c.charCodeAt(0) >= 0x80;
const isNewline = (c: string): boolean => c === '\n' || c === '\r' || c === '\f';

/** A valid escape starts here: a backslash not followed by a newline (nor the end). */
function startsEscape(css: string, at: number): boolean {
  const next = css[at + 1];
  return css[at] === '\\' && next !== undefined && !isNewline(next);
}

function startsIdent(css: string, at: number): boolean {
  const c = css[at] ?? '';
  const first = c === '-' ? at + 1 : at;
  const f = css[first] ?? '';
  if (c === '-' && f === '-') return true;
  return /^[A-Za-z_]$/.test(f) || f.charCodeAt(0) >= 0x80 || startsEscape(css, first);
}

/** The code point of the escape at s.at (a backslash), moving past it and its one trailing space. */
function readEscape(s: Scan): string {
  s.at++; // the backslash
  let hex = '';
  while (hex.length < 6 && isHex(s.css[s.at] ?? '')) hex += s.css[s.at++];
  if (hex === '') return s.css[s.at++] ?? '';
  if (/^[ \t\n\r\f]$/.test(s.css[s.at] ?? '')) s.at += s.css.startsWith('\r\n', s.at) ? 2 : 1;
  const cp = Number.parseInt(hex, 16);
  return cp === 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ? '\ufffd' : String.fromCodePoint(cp);
}

function readIdent(s: Scan): string {
  let out = '';
  for (;;) {
    const c = s.css[s.at] ?? '';
    if (startsEscape(s.css, s.at)) out += readEscape(s);
    else if (c !== '' && isNameChar(c)) {
      out += c;
      s.at++;
    } else return out;
  }
}

/** The string at s.at (its quote), decoded; null for a string a newline breaks, which fetches nothing. */
function readString(s: Scan): string | null {
  const quote = s.css[s.at++];
  let out = '';
  while (s.at < s.css.length) {
    const c = s.css[s.at] ?? '';
    if (c === quote) {
      s.at++;
      return out;
    }
    if (isNewline(c)) return null;
    if (c === '\\' && isNewline(s.css[s.at + 1] ?? '')) s.at += s.css.startsWith('\r\n', s.at + 1) ? 3 : 2;
    else if (startsEscape(s.css, s.at)) out += readEscape(s);
    else {
      out += c;
      s.at++;
    }
  }
  return out; // a string the stylesheet's end closes still counts
}

/**
 * After `url(`: the unquoted URL up to `)`, decoded, and s.at past it; null when the argument is a
 * string (read as one, as a function's) and s.at left at it.
 */
function readUnquotedUrl(s: Scan): string | null {
  while (/^[ \t\n\r\f]$/.test(s.css[s.at] ?? '')) s.at++;
  const first = s.css[s.at] ?? '';
  if (first === '"' || first === "'") return null;
  let out = '';
  while (s.at < s.css.length) {
    const c = s.css[s.at] ?? '';
    if (c === ')') break;
    if (startsEscape(s.css, s.at)) out += readEscape(s);
    else {
      out += c;
      s.at++;
    }
  }
  s.at++;
  return out.trim();
}
