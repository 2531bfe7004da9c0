/** The table's options as commander's, for `run` and `ladder`: flags, help, defaults and checks. */
import { type Command, Option } from 'commander';
import { collect } from '../register/options.js';
import { fromFlagText } from './rules.js';
import { type AnyOptionSpec, helpFor, longFlag, type TableCommand } from './spec.js';
import { optionsOf } from './table.js';

const CONFIG_HELP =
  'options from a JSON or TOML file, keyed as the long flags without -- (max-turns = 30); flags given here win (docs/commands.md#config-file)';

/** `command`'s options from the table, in its order, then `--config FILE` (the same options from a file). */
export function withTableOptions(command: Command, name: TableCommand): Command {
  for (const [, spec] of optionsOf(name)) command.addOption(commanderOption(spec, name));
  return command.option('--config <file>', CONFIG_HELP);
}

function commanderOption(spec: AnyOptionSpec, name: TableCommand): Option {
  const flags = spec.value === undefined ? spec.flag : `${spec.flag} <${spec.value}>`;
  const option = new Option(flags, helpFor(spec, name));
  const { rule } = spec;
  if (rule.kind === 'choice') option.choices(rule.values);
  else if (rule.kind === 'list') option.argParser(collect);
  else if (rule.kind === 'integer' || rule.kind === 'number' || rule.kind === 'parallel')
    option.argParser((text: string) => fromFlagText(rule, longFlag(spec), text));
  if (spec.default !== undefined) option.default(spec.default);
  return option;
}
