/**
 * Glob matching, written here rather than taken from `path.matchesGlob` (experimental on Node 20).
 *
 * Pattern syntax (`compileGlob`): `*` is any run of characters except `/`; `?` is one character
 * except `/`; `[abc]`, `[a-z]`, `[!a]` / `[^a]` is one character of (or not of) a class, never `/`;
 * `**` as a whole segment is zero or more segments (so `a`, `**`, `b` joined by slashes matches `a/b`
 * and `a/x/y/b`; a trailing `/**` is everything below, not the directory itself); `**` inside a
 * segment acts as `*`; `\` escapes the next character. Unlike the shell, `*` matches a leading dot.
 *
 * Workspace rule (`matchesWorkspaceGlob`, for allowedWrites and ignored), as in .gitignore:
 * - a pattern with no `/` (a trailing one aside) matches a name at any depth: `*.pyc`, `__pycache__`;
 * - a pattern with a `/` at the start or in the middle is anchored at /workspace; a leading `/` only
 *   anchors, so `/main.py` is main.py at the top and nowhere else;
 * - a path also matches when one of its parent directories matches (`__pycache__` covers
 *   `a/__pycache__/m.pyc`); a pattern ending in `/` matches only such parents.
 */

const cache = new Map<string, RegExp>();

/** The whole-path regular expression of a glob (see the syntax above). */
export function compileGlob(pattern: string, options: { ignoreCase?: boolean } = {}): RegExp {
  const key = `${options.ignoreCase === true ? 'i' : '-'}${pattern}`;
  let re = cache.get(key);
  if (re === undefined) {
    re = new RegExp(`^${globSource(pattern)}$`, options.ignoreCase === true ? 'i' : '');
    cache.set(key, re);
  }
  return re;
}

/** Whether a workspace-relative path matches one pattern under the workspace rule. */
export function matchesWorkspaceGlob(pattern: string, relPath: string): boolean {
  const dirOnly = pattern.length > 1 && pattern.endsWith('/') && !pattern.endsWith('\\/');
  // A run of slashes is trimmed from its first one only, not rescanned from each.
  const body = dirOnly ? pattern.replace(/(?<!\/)\/+$/, '') : pattern;
  if (body === '' || body === '/') return false;
  const anchored = hasUnescapedSlash(body);
  const re = compileGlob(anchored ? body.replace(/^\/+/, '') : `**/${body}`);
  const parts = relPath.split('/');
  for (let n = 1; n <= parts.length; n++) {
    if (dirOnly && n === parts.length) break;
    if (re.test(parts.slice(0, n).join('/'))) return true;
  }
  return false;
}

export function matchesAnyWorkspaceGlob(patterns: readonly string[], relPath: string): boolean {
  return patterns.some((p) => matchesWorkspaceGlob(p, relPath));
}

function hasUnescapedSlash(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '/') return true;
  }
  return false;
}

/** Splits on unescaped `/`, keeping escapes in the parts. */
function segments(pattern: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      current += c + pattern[++i];
    } else if (c === '/') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function globSource(pattern: string): string {
  const segs = segments(pattern);
  if (segs.length === 1 && segs[0] === '**') return '.*';
  let out = '';
  let needSep = false;
  segs.forEach((seg, i) => {
    const last = i === segs.length - 1;
    if (needSep) out += '/';
    if (seg === '**' && !last) {
      out += '(?:.*/)?';
      needSep = false;
    } else if (seg === '**') {
      out += '.+';
    } else {
      out += segmentSource(seg);
      needSep = true;
    }
  });
  return out;
}

function segmentSource(seg: string): string {
  let out = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i] as string;
    if (c === '\\' && i + 1 < seg.length) out += escapeRegex(seg[++i] as string);
    else if (c === '*') {
      while (seg[i + 1] === '*') i++;
      out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const cls = bracketClass(seg, i);
      if (cls === null) out += '\\[';
      else {
        out += cls.source;
        i = cls.end;
      }
    } else out += escapeRegex(c);
  }
  return out;
}

/** A `[...]` class starting at `start`, or null when it never closes (then `[` is literal). */
function bracketClass(seg: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  const negated = seg[i] === '!' || seg[i] === '^';
  if (negated) i++;
  let body = '';
  let first = true;
  for (; i < seg.length; i++) {
    const c = seg[i] as string;
    if (c === ']' && !first) {
      return { source: negated ? `[^/${body}]` : `(?!/)[${body}]`, end: i };
    }
    first = false;
    if (c === '\\' && i + 1 < seg.length) body += `\\${seg[++i]}`;
    else if (c === '-') body += '-';
    else body += /[\]\\^[]/.test(c) ? `\\${c}` : c;
  }
  return null;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/-]/.test(c) ? `\\${c}` : c;
}
