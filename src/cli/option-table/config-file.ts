/**
 * `run --config FILE` and `ladder --config FILE`: options from a JSON or TOML file (by its
 * extension), keyed as the long flags without the dashes and checked against the table's schema
 * before the command runs. A flag given on the command line keeps its value; the file's values take
 * the place of the defaults. Values mean what the flag's would (paths: from the working directory).
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import type { Command } from 'commander';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod';
import { InternalError, UsageError } from '../../util/errors.js';
import { configSchema, SCHEMA_KEY } from './config-schema.js';
import { ruleText, TEXT, type ValueRule } from './rules.js';
import { configKey, TABLE_COMMANDS, type TableCommand } from './spec.js';
import { optionsOf } from './table.js';

/** Sets the file's options on `command` (commander's source: `config`) where no flag set them. */
export function applyConfigFile(command: Command, file: string): void {
  const name = TABLE_COMMANDS.find((c) => c === command.name());
  if (name === undefined)
    throw new InternalError(`--config on ${command.name()}, which has no options table`);
  for (const [key, value] of Object.entries(configOptions(name, file, readConfigText(file))))
    if (command.getOptionValueSource(key) !== 'cli') command.setOptionValueWithSource(key, value, 'config');
}

/**
 * The file's options by commander's key (camelCase), or a one-line UsageError naming the file and
 * the key: an unknown key, a value of the wrong type, or one the flag would refuse.
 */
export function configOptions(command: TableCommand, file: string, text: string): Record<string, unknown> {
  const data = parseConfigText(file, text);
  const checked = configSchema(command).safeParse(data);
  if (!checked.success) throw new UsageError(`${file}: ${problem(command, data, checked.error.issues[0])}`);
  const options: Record<string, unknown> = {};
  for (const [key, spec] of optionsOf(command)) {
    const value = checked.data[configKey(spec)];
    if (value !== undefined) options[key] = value;
  }
  return options;
}

function readConfigText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`--config ${file}: no such file`, { cause: err });
    if (code === 'EISDIR') throw new UsageError(`--config ${file}: a folder, not a file`, { cause: err });
    throw err;
  }
}

function parseConfigText(file: string, text: string): Record<string, unknown> {
  const data = parseByExtension(file, text.replace(/^\uFEFF/, ''));
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new UsageError(`${file}: must hold an object whose keys are options (the long flags without --)`);
  return data as Record<string, unknown>;
}

function parseByExtension(file: string, text: string): unknown {
  const extension = extname(file).toLowerCase();
  if (extension === '.json') {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${file}: not valid JSON: ${(err as Error).message}`, { cause: err });
    }
  }
  if (extension === '.toml') {
    try {
      return parseToml(text);
    } catch (err) {
      if (!(err instanceof TomlError)) throw err;
      // smol-toml's message carries a code excerpt on the lines after the first.
      const first = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
      throw new UsageError(`${file}: not valid TOML (line ${err.line}, column ${err.column}): ${first}`, {
        cause: err,
      });
    }
  }
  throw new UsageError(`--config ${file}: a config file is .json or .toml`);
}

/** The first thing the schema refused, as the rest of the line after the file's name. */
function problem(
  command: TableCommand,
  data: Record<string, unknown>,
  issue: z.core.$ZodIssue | undefined,
): string {
  if (issue?.code === 'unrecognized_keys') return unknownKey(command, issue.keys[0] ?? '');
  const key = String(issue?.path[0] ?? '');
  const rule = ruleOf(command, key);
  if (issue === undefined || rule === undefined)
    throw new InternalError(`config schema refused ${key} unexplained`);
  return `${key} must be ${ruleText(rule)} (got ${shown(data[key])})`;
}

function ruleOf(command: TableCommand, key: string): ValueRule | undefined {
  if (key === SCHEMA_KEY) return TEXT;
  return optionsOf(command).find(([, spec]) => configKey(spec) === key)?.[1].rule;
}

function unknownKey(command: TableCommand, key: string): string {
  const loose = (k: string) => k.toLowerCase().replace(/[-_]/g, '');
  const near = optionsOf(command)
    .map(([, spec]) => configKey(spec))
    .find((k) => loose(k) === loose(key));
  if (near !== undefined)
    return `unknown key "${key}" (did you mean "${near}"? keys are the long flags without --)`;
  const other = TABLE_COMMANDS.find(
    (c) => c !== command && optionsOf(c).some(([, spec]) => configKey(spec) === key),
  );
  if (other !== undefined) return `unknown key "${key}": an option of ${other}, not of ${command}`;
  return `unknown key "${key}" (keys are ${command}'s long flags without --: agent-bench ${command} --help)`;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
