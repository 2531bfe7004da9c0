/**
 * The modules a proof can run: every file reachable from the entry modules by relative imports
 * (static, dynamic with a literal path, re-exports), as paths relative to the package root. Package
 * imports are left out (package-lock.json pins them). Read with a pattern rather than a parser: a
 * false match (an import spelled in a comment) only adds a file to the hash, never leaves one out,
 * and every import in this code base has a literal path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const RELATIVE_IMPORT = /\b(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * `source`: TypeScript files (a clone: `./x.js` is written for `./x.ts`) or the compiled JavaScript
 * (an installed package). Entries that do not exist are skipped.
 */
export function moduleClosure(root: string, entries: readonly string[], source: 'ts' | 'js'): string[] {
  const seen = new Set<string>();
  const stack = entries.filter((e) => existsSync(join(root, e)));
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const text = readFileSync(join(root, rel), 'utf8');
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const target = resolveImport(root, rel, match[1] as string, source);
      if (target !== null && !seen.has(target)) stack.push(target);
    }
  }
  return [...seen].sort();
}

function resolveImport(root: string, from: string, specifier: string, source: 'ts' | 'js'): string | null {
  const path = join(dirname(join(root, from)), specifier);
  const candidates =
    source === 'ts'
      ? [path.replace(/\.js$/, '.ts'), path, join(path, 'index.ts')]
      : [path, join(path, 'index.js')];
  const found = candidates.find((c) => existsSync(c) && /\.(ts|js|mjs)$/.test(c));
  return found === undefined ? null : relative(root, found);
}
