/**
 * The command reference (docs/commands.md), generated from the commander program so it cannot drift
 * from the CLI: every command and subcommand in registration order, its usage, arguments and options
 * with their defaults. `npm run docs:cli` writes it; test/cli/reference.test.ts fails when it is stale.
 */
import type { Argument, Command, Option } from 'commander';

/** Every command under `program`, depth first in the order `--help` lists them, with its full name. */
export function commandsOf(program: Command): Array<{ path: string; command: Command }> {
  const found: Array<{ path: string; command: Command }> = [];
  const walk = (command: Command, path: string): void => {
    for (const sub of command.commands) {
      const subPath = `${path} ${sub.name()}`;
      found.push({ path: subPath, command: sub });
      walk(sub, subPath);
    }
  };
  walk(program, program.name());
  return found;
}

/** The reference of `program`, then `appendix` (sections of Markdown lines, e.g. option-table/reference.ts's). */
export function commandReference(program: Command, appendix: readonly string[] = []): string {
  const commands = commandsOf(program);
  const lines = [
    '# Command reference',
    '',
    '<!-- Generated from the CLI definition (src/cli/register/, src/cli/option-table/) by `npm run docs:cli`: do not edit by hand. -->',
    '',
    `${markdownText(program.description())} Every command also takes \`-h, --help\`, which prints what its section here says.`,
    '',
    ...usageAndTables(program),
    '## Commands',
    '',
    ...commands.map(
      ({ path, command }) => `- [\`${path}\`](#${anchor(path)}): ${markdownText(command.description())}`,
    ),
    '',
  ];
  for (const { path, command } of commands) lines.push(...commandSection(path, command));
  lines.push(...appendix);
  return `${lines.join('\n').trimEnd()}\n`;
}

function commandSection(path: string, command: Command): string[] {
  const lines = [`## ${path}`, '', markdownText(command.description()), ''];
  if (command.commands.length > 0) {
    const subs = command.commands.map((sub) => `[\`${sub.name()}\`](#${anchor(`${path} ${sub.name()}`)})`);
    lines.push(`Subcommands: ${subs.join(', ')}.`, '');
  }
  return [...lines, ...usageAndTables(command)];
}

/** The usage line, then the arguments and options as tables. */
function usageAndTables(command: Command): string[] {
  const lines = ['```', command.createHelp().commandUsage(command), '```', ''];
  if (command.registeredArguments.length > 0) {
    lines.push('| Argument | Description |', '| --- | --- |');
    for (const arg of command.registeredArguments) lines.push(argumentRow(arg));
    lines.push('');
  }
  const options = command.options.filter((option) => !option.hidden);
  if (options.length > 0) {
    lines.push('| Option | Description | Default |', '| --- | --- | --- |');
    for (const option of options) lines.push(optionRow(option));
    lines.push('');
  }
  return lines;
}

function argumentRow(arg: Argument): string {
  const name = `${arg.name()}${arg.variadic ? '...' : ''}`;
  const term = arg.required ? `<${name}>` : `[${name}]`;
  return `| \`${term}\` | ${markdownText(arg.description)} |`;
}

function optionRow(option: Option): string {
  const notes = option.argChoices ? ` (one of: ${option.argChoices.map((c) => `\`${c}\``).join(', ')})` : '';
  return `| \`${option.flags}\` | ${markdownText(option.description)}${notes} | ${defaultOf(option)} |`;
}

function defaultOf(option: Option): string {
  if (option.mandatory) return 'required';
  if (option.defaultValueDescription !== undefined) return markdownText(option.defaultValueDescription);
  if (option.defaultValue === undefined) return '';
  return `\`${JSON.stringify(option.defaultValue)}\``;
}

/** GitHub's heading anchor for a heading made of lowercase words and spaces. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
}

/** Text as Markdown shows it verbatim inside a table cell. */
function markdownText(text: string): string {
  return text.replace(/[\\|<>*_`]/g, (c) => `\\${c}`);
}
