/**
 * A file operand as the shell would expand it: brace alternatives (`{a,b}.py`), then a glob when an
 * unquoted `*`, `?` or `[...]` is left. Quoted characters stay literal because the lexer escaped them.
 */
import { posix } from 'node:path';
import type { Word } from './shell-words.js';

const MAX_EXPANSIONS = 256;

export type OperandPath = { glob: false; path: string } | { glob: true; pattern: string };

/** Absolute paths (or absolute globs) an operand names; [] when it holds an expansion or the cwd is unknown. */
export function operandPaths(word: Word, cwd: string | null): OperandPath[] {
  if (word.dynamic || word.text === '' || word.text === '-') return [];
  const out: OperandPath[] = [];
  for (const pattern of expandBraces(word.pattern)) {
    const absolute = absolutePattern(pattern, cwd);
    if (absolute === null) continue;
    out.push(
      hasGlob(absolute)
        ? { glob: true, pattern: absolute }
        : { glob: false, path: unescapePattern(absolute) },
    );
  }
  return out;
}

function absolutePattern(pattern: string, cwd: string | null): string | null {
  if (!pattern.startsWith('/') && cwd === null) return null;
  const joined = posix.normalize(pattern.startsWith('/') ? pattern : `${cwd}/${pattern}`);
  // A run of slashes is trimmed from its first one only, not rescanned from each.
  return joined.length > 1 ? joined.replace(/(?<!\/)\/+$/, '') : joined;
}

export function expandBraces(pattern: string): string[] {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      i++;
      continue;
    }
    if (pattern[i] !== '{') continue;
    const group = braceGroup(pattern, i);
    if (group === null) continue;
    const prefix = pattern.slice(0, i);
    const suffix = pattern.slice(group.end + 1);
    const out: string[] = [];
    for (const alternative of group.alternatives) {
      for (const expanded of expandBraces(prefix + alternative + suffix)) {
        if (out.length >= MAX_EXPANSIONS) return out;
        out.push(expanded);
      }
    }
    return out;
  }
  return [pattern];
}

/** The alternatives of the `{...}` opened at `start`, or null when it has no top-level comma. */
function braceGroup(pattern: string, start: number): { alternatives: string[]; end: number } | null {
  let depth = 0;
  let from = start + 1;
  const alternatives: string[] = [];
  for (let j = start; j < pattern.length; j++) {
    const c = pattern[j];
    if (c === '\\') j++;
    else if (c === '{') depth++;
    else if (c === ',' && depth === 1) {
      alternatives.push(pattern.slice(from, j));
      from = j + 1;
    } else if (c === '}' && --depth === 0) {
      if (alternatives.length === 0) return null;
      alternatives.push(pattern.slice(from, j));
      return { alternatives, end: j };
    }
  }
  return null;
}

/** An unescaped `*`, `?`, or a `[` closed later. */
export function hasGlob(pattern: string): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?') return true;
    else if (c === '[' && pattern.indexOf(']', i + 2) > 0) return true;
  }
  return false;
}

function unescapePattern(pattern: string): string {
  return pattern.replace(/\\(.)/gs, '$1');
}
