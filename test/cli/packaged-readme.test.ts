/**
 * The README ships in the package (package.json `files`), so what it points at must ship too: a
 * link into a folder the package lacks is a dead end for everyone who installed it. Files that only
 * a clone has (scripts/, test/, src/) may be named only where the text says it is about a clone.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The paths `npm pack` would put in the tarball (no build: `--ignore-scripts`). */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set(pack?.files.map((f) => f.path) ?? []);
}

function ships(packed: Set<string>, path: string): boolean {
  const p = path.replace(/^\.\//, '').replace(/\/$/, '');
  return packed.has(p) || [...packed].some((f) => f.startsWith(`${p}/`));
}

/** The README's blocks (paragraphs, code blocks) with whether each is about a clone. */
function readmeBlocks(markdown: string): { text: string; clone: boolean }[] {
  const blocks: { text: string; clone: boolean }[] = [];
  let cloneSection = false;
  for (const block of markdown.split(/\n\s*\n/)) {
    const heading = /^#+ (.+)$/m.exec(block);
    if (heading !== null) cloneSection = /\bclone\b/i.test(heading[1] ?? '');
    blocks.push({ text: block, clone: cloneSection || /\bclone\b/i.test(block) });
  }
  return blocks;
}

/** Relative links outside code. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? '').split('#')[0] ?? '')
    .filter((link) => link !== '' && !/^[a-z]+:/.test(link));
}

/** Paths into the repository's own top-level folders named anywhere in the text (code included). */
function repoPaths(text: string, folders: readonly string[]): string[] {
  const pattern = new RegExp(`(?<![\\w./-])(?:${folders.join('|')})/[\\w./-]*`, 'g');
  return [...text.matchAll(pattern)].map((m) => m[0].replace(/[.]+$/, ''));
}

// `results/` is where a run writes in the user's own folder (`results/x.json`), not a file of ours.
const FOLDERS = readdirSync(ROOT).filter(
  (name) =>
    !name.startsWith('.') &&
    !['node_modules', 'results'].includes(name) &&
    statSync(join(ROOT, name)).isDirectory(),
);

describe('the packaged README', () => {
  let packed: Set<string>;
  // `npm pack --dry-run` takes seconds, more on a loaded machine.
  beforeAll(() => {
    packed = packedFiles();
  }, 120_000);

  it('ships README.md, docs/ (what its links need) and the script doctor names for Docker', () => {
    expect(packed.has('README.md')).toBe(true);
    expect(ships(packed, 'docs/commands.md')).toBe(true);
    expect(packed.has('scripts/provision-docker.sh')).toBe(true);
  });

  it('links only to files the package ships', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(relativeLinks(readme).filter((link) => !ships(packed, link))).toEqual([]);
  });

  it('names a file the package lacks only where it speaks of a clone', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const stray = readmeBlocks(readme)
      .filter((b) => !b.clone)
      .flatMap((b) => repoPaths(b.text, FOLDERS))
      .filter((path) => !ships(packed, path));
    expect(stray).toEqual([]);
  });

  it('says how to run agent-bench from a clone', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm link');
    expect(readme).toContain('node bin/agent-bench');
  });

  it('catches a stray path and a clone-only one', () => {
    const blocks = readmeBlocks(
      '# Use\n\nsee `scripts/x.sh` and ./my-tasks/new\n\n## In a clone\n\nrun scripts/y.sh',
    );
    expect(blocks.filter((b) => !b.clone).flatMap((b) => repoPaths(b.text, ['scripts', 'tasks']))).toEqual([
      'scripts/x.sh',
    ]);
    expect(relativeLinks('[a](scripts/a.sh) [b](https://x/y) `[c](d)`')).toEqual(['scripts/a.sh']);
  });
});
