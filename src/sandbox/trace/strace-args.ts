/**
 * strace's argument syntax: C-quoted strings (maybe cut, `"abc"...`), arrays, structs, flags and
 * comments. Only what the trace parser needs: top-level splitting and string decoding.
 */

/** Index of the `)` closing an argument list that starts at `from` (just past its `(`), or -1. */
export function closingParen(text: string, from = 0): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i);
    else if (c === '/' && text[i + 1] === '*') i = commentEnd(text, i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
    else if (c === ')') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** Top-level comma-separated parts of an argument list (or of an array's inside), trimmed. */
export function splitArgs(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = stringEnd(text, i);
    else if (c === '/' && text[i + 1] === '*') i = commentEnd(text, i);
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last !== '' || parts.length > 0) parts.push(last);
  return parts;
}

/** The string a quoted argument holds (a cut one: the part shown), or null if it is not one. */
export function decodeString(arg: string): string | null {
  if (!arg.startsWith('"')) return null;
  const end = stringEnd(arg, 0);
  if (end >= arg.length) return null;
  return Buffer.from(cBytes(arg.slice(1, end))).toString('utf8');
}

/** The strings of an array argument (`["ls", "-l"]`); null if it is no array of strings. */
export function decodeStringArray(arg: string): string[] | null {
  if (!arg.startsWith('[') || !arg.endsWith(']')) return null;
  const out: string[] = [];
  for (const part of splitArgs(arg.slice(1, -1))) {
    if (part === '...') continue; // strace elided the rest (more elements than -s)
    const s = decodeString(part);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}

/** Index of the closing quote of the string opening at `open`. */
function stringEnd(text: string, open: number): number {
  let i = open + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i;
}

function commentEnd(text: string, open: number): number {
  const end = text.indexOf('*/', open + 2);
  return end < 0 ? text.length : end + 1;
}

const SIMPLE: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, a: 7, b: 8, e: 27 };

/** C escapes to bytes: strace prints every byte outside printable ASCII as one. */
function cBytes(body: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      bytes.push(c.charCodeAt(0) & 0xff);
      continue;
    }
    const next = body[i + 1] ?? '';
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(body.slice(i + 1, i + 4));
    const oct = /^[0-7]{1,3}/.exec(body.slice(i + 1, i + 4));
    if (hex !== null) {
      bytes.push(Number.parseInt(hex[1] as string, 16));
      i += hex[0].length;
    } else if (oct !== null) {
      bytes.push(Number.parseInt(oct[0], 8) & 0xff);
      i += oct[0].length;
    } else {
      bytes.push(SIMPLE[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return bytes;
}
