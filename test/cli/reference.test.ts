/**
 * docs/commands.md is generated from the CLI definition (`npm run docs:cli`); this test regenerates
 * it in memory, so CI fails when a command or option changed and the reference was not rewritten.
 * Beside it: every link of the README and docs/ leads to a file (and heading) that exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { configFileSection } from '../../src/cli/option-table/reference.js';
import { commandReference, commandsOf } from '../../src/cli/reference.js';

const REFERENCE = new URL('../../docs/commands.md', import.meta.url);

describe('docs/commands.md', () => {
  it('is what the CLI definition generates', () => {
    const onDisk = readFileSync(REFERENCE, 'utf8');
    const fresh = commandReference(buildProgram(), configFileSection());
    if (onDisk !== fresh) expect.fail('docs/commands.md is stale: run npm run docs:cli');
  });

  it('has a section, and a line in the contents, for every command and subcommand', () => {
    const reference = commandReference(buildProgram());
    const paths = commandsOf(buildProgram()).map(({ path }) => path);
    for (const expected of ['gate', 'stats', 'report axes', 'skill init', 'task from-trial', 'export atif'])
      expect(paths).toContain(`agent-bench ${expected}`);
    for (const path of paths) {
      expect(reference).toContain(`\n## ${path}\n`);
      expect(reference).toContain(`- [\`${path}\`](#${path.replace(/ /g, '-')}):`);
    }
  });

  it("lists every option of every command, with its default and whether it's required", () => {
    const reference = commandReference(buildProgram());
    for (const { command } of commandsOf(buildProgram()))
      for (const option of command.options) expect(reference).toContain(`| \`${option.flags}\` |`);
    expect(reference).toContain('| `-k, --k <n>` | trials per task | `1` |');
    expect(reference).toContain('| `--baseline <dir>` | results folder of the baseline run | required |');
  });

  it('writes arguments, choices and Markdown-special text so they render as written', () => {
    const program = new Command('tool').description('a tool');
    program
      .command('go')
      .description('go <there> | fast_ish')
      .argument('<mode>', 'a mode')
      .argument('[files...]', 'the files')
      .addOption(new Option('--format <f>', 'output format').choices(['md', 'json']).default('md'));
    const reference = commandReference(program);
    expect(reference).toContain('go \\<there\\> \\| fast\\_ish');
    expect(reference).toContain('| `<mode>` | a mode |');
    expect(reference).toContain('| `[files...]` | the files |');
    expect(reference).toContain('| `--format <f>` | output format (one of: `md`, `json`) | `"md"` |');
    expect(reference).toContain('tool go [options] <mode> [files...]');
  });
});

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter((page) =>
  page.endsWith('.md'),
);

/** The links of a Markdown page, outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

/** GitHub's anchors for a page's headings. */
function anchorsOf(markdown: string): Set<string> {
  const headings = markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#+ (.+)$/gm);
  return new Set(
    [...headings].map((m) =>
      (m[1] ?? '')
        .toLowerCase()
        .replace(/[^a-z0-9 _-]/g, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('links of the README and docs/', () => {
  it.each(PAGES)('%s: every relative link leads to a file, and a #heading to a heading of it', (page) => {
    const broken: string[] = [];
    for (const link of linksOf(readFileSync(join(ROOT, page), 'utf8'))) {
      if (/^[a-z]+:/.test(link)) continue;
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path);
      if (!existsSync(target)) broken.push(`${link}: no ${relative(ROOT, target)}`);
      else if (anchor !== undefined && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${link}: no heading #${anchor}`);
    }
    expect(broken).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const linked = linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    for (const page of PAGES.filter((p) => p !== 'README.md')) expect(linked).toContain(page);
  });

  it('catches a link to a missing file', () => {
    expect(linksOf('see [x](docs/nope.md) and `[y](z.md)`')).toEqual(['docs/nope.md']);
    expect(anchorsOf('# Command reference\n## agent-bench report axes')).toEqual(
      new Set(['command-reference', 'agent-bench-report-axes']),
    );
  });
});
