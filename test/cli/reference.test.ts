/**
 * docs/commands.md is generated from the CLI definition (`npm run docs:cli`); this test regenerates
 * it in memory, so CI fails when a command or option changed and the reference was not rewritten.
 */
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { commandReference, commandsOf } from '../../src/cli/reference.js';

const REFERENCE = new URL('../../docs/commands.md', import.meta.url);

describe('docs/commands.md', () => {
  it('is what the CLI definition generates', () => {
    const onDisk = readFileSync(REFERENCE, 'utf8');
    const fresh = commandReference(buildProgram());
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
