/**
 * A Dockerfile's instructions as BuildKit's parser reads them: line continuations joined (comment
 * lines inside skipped), comments and blank lines skipped, and the here-documents of RUN, COPY and
 * ADD (`<<EOF`, `<<-EOF`, `<<'EOF'`) read as their bodies, never as instructions (a heredoc's
 * `set -e` is no SET instruction). The parser directives at the top (`# syntax=`, `# escape=`) are
 * kept apart. Only the backslash escape is read: `# escape=` is kept as a directive, not applied.
 */

export interface Heredoc {
  /** The delimiter, quotes removed. */
  name: string;
  /** The marker as written (`<<-"EOF"`). */
  marker: string;
  /** `<<-`: leading tabs stripped from the body's lines and from its delimiter line. */
  chomp: boolean;
  /** Unquoted delimiter: variables in the body are expanded (by BuildKit for COPY, by the shell for RUN). */
  expand: boolean;
  /** The body, each line ending in a newline, as written (tabs not yet stripped). */
  body: string;
}

export interface Instruction {
  keyword: string;
  /** The instruction's line, continuations joined, without the keyword. */
  args: string;
  /** Index of the instruction's first line. */
  line: number;
  /** Index of its last line, heredoc bodies included. */
  endLine: number;
  heredocs: Heredoc[];
}

export interface ParsedDockerfile {
  /** Parser directives (`syntax`, `escape`, `check`), keyed lowercase, with the line of each. */
  directives: { name: string; value: string; line: number }[];
  instructions: Instruction[];
}

/** A heredoc that never ends, or another parse error BuildKit would stop at. */
export class DockerfileSyntaxError extends Error {}

const HEREDOC_KEYWORDS = new Set(['RUN', 'COPY', 'ADD']);
const DIRECTIVE = /^#\s*([a-zA-Z][a-zA-Z0-9]*)\s*=\s*(.+?)\s*$/;

export function parseDockerfile(text: string): ParsedDockerfile {
  const lines = text.split(/\r?\n/);
  const directives: ParsedDockerfile['directives'] = [];
  const out: Instruction[] = [];
  let inDirectives = true;
  for (let i = 0; i < lines.length; i++) {
    const first = i;
    let line = lines[i] ?? '';
    if (inDirectives) {
      const d = DIRECTIVE.exec(line);
      if (d !== null) {
        directives.push({ name: (d[1] ?? '').toLowerCase(), value: d[2] ?? '', line: i });
        continue;
      }
      inDirectives = false;
    }
    if (/^\s*(#.*)?$/.test(line)) continue;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      i++;
      const next = lines[i] ?? '';
      if (/^\s*#/.test(next)) continue;
      line = `${line.replace(/\\\s*$/, '')} ${next.trim()}`;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(line);
    if (m === null) continue;
    const keyword = (m[1] ?? '').toUpperCase();
    const args = (m[2] ?? '').trim();
    const heredocs: Heredoc[] = [];
    if (HEREDOC_KEYWORDS.has(keyword))
      for (const marker of words(args)) {
        const h = heredocMarker(marker);
        if (h === null) continue;
        const read = readBody(lines, i + 1, h);
        if (read === null)
          throw new DockerfileSyntaxError(
            `line ${first + 1}: ${keyword}'s heredoc ${marker} is never ended by a line ${h.name}`,
          );
        heredocs.push({ ...h, marker, body: read.body });
        i = read.end;
      }
    out.push({ keyword, args, line: first, endLine: i, heredocs });
  }
  return { directives, instructions: out };
}

/** A word that opens a heredoc (BuildKit: `<<` at the word's start, an optional `-`, a delimiter), or null. */
function heredocMarker(word: string): Omit<Heredoc, 'body' | 'marker'> | null {
  const m = /^<<(-?)([^<]+)$/.exec(word);
  if (m === null) return null;
  const raw = m[2] ?? '';
  const quoted = /["']/.test(raw);
  const name = raw.replace(/^"(.*)"$|^'(.*)'$/, '$1$2').replace(/["']/g, '');
  if (name === '') return null;
  return { name, chomp: m[1] === '-', expand: !quoted };
}

/** The body's lines up to the delimiter line, and that line's index; null when it never comes. */
function readBody(
  lines: readonly string[],
  from: number,
  h: { name: string; chomp: boolean },
): { body: string; end: number } | null {
  let body = '';
  for (let j = from; j < lines.length; j++) {
    const line = lines[j] ?? '';
    if ((h.chomp ? line.replace(/^\t+/, '') : line) === h.name) return { body, end: j };
    body += `${line}\n`;
  }
  return null;
}

/** Shell-like words of an instruction line, quotes and escapes kept as written. */
export function words(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let quote: string | null = null;
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote !== null) {
      word += c;
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i] ?? '';
      continue;
    }
    if (/\s/.test(c)) {
      if (inWord) out.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    word += c;
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && i + 1 < line.length) word += line[++i] ?? '';
  }
  if (inWord) out.push(word);
  return out;
}

/** A heredoc's body as BuildKit takes it: with `<<-`, each line's leading tabs removed. */
export function chompedBody(h: Heredoc): string {
  return h.chomp ? h.body.replace(/^\t+/gm, '') : h.body;
}
