/**
 * The shape of an entry of the options table (table.ts), typed against the options `run` and `ladder`
 * parse into: a missing or extra entry, a flag that is not the key in kebab-case, a rule that yields
 * another type than the key's, or a command whose options type lacks the key is a compile error.
 */
import type { LadderCliOptions } from '../commands/ladder.js';
import type { RunCliOptions } from '../commands/run.js';
import type { Rule } from './rules.js';

export const TABLE_COMMANDS = ['run', 'ladder'] as const;
export type TableCommand = (typeof TABLE_COMMANDS)[number];

/** Every option of `run` or `ladder`, as commander parses it (camelCase of the flags). */
export type BenchOptions = RunCliOptions & LadderCliOptions;

/** `maxTurns` → `max-turns`, as commander turns a flag into its key the other way. */
type Kebab<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${Kebab<Tail>}`
  : '';

/** The commands whose options type has `K`, in the table's command order. */
type CommandsTaking<K> = K extends keyof RunCliOptions
  ? K extends keyof LadderCliOptions
    ? readonly ['run', 'ladder']
    : readonly ['run']
  : readonly ['ladder'];

/** One help text, or one per command where they say it differently. */
type OptionHelp = string | Readonly<Record<TableCommand, string>>;

interface Declared<T, K extends string> {
  /** `--max-turns`, or with its short form first: `-k, --k`. */
  flag: `--${Kebab<K>}` | `-${string}, --${Kebab<K>}`;
  description: OptionHelp;
  /** Commander's default (and help's `(default: …)`); absent: the option is undefined when not given. */
  default?: T;
  rule: Rule<T>;
  commands: CommandsTaking<K>;
}

/** A switch (`SWITCH`) has no value name; every other option has one: `--k <n>` has `n`. */
type ValueName<T> = [T] extends [boolean] ? { value?: never } : { value: string };

type OptionSpec<T, K extends string> = Declared<T, K> & ValueName<T>;

/** One entry per key of `O`, no more. */
export type OptionsTable<O> = { readonly [K in keyof O & string]-?: OptionSpec<NonNullable<O[K]>, K> };

/** An entry as registration and the config file read it, whatever its key. */
export interface AnyOptionSpec {
  flag: string;
  value?: string;
  description: OptionHelp;
  default?: unknown;
  rule: Rule<unknown>;
  commands: readonly TableCommand[];
}

/** `--max-turns` of `-k, --k` or `--max-turns`. */
export function longFlag(spec: AnyOptionSpec): string {
  return spec.flag.split(', ').at(-1) ?? spec.flag;
}

/** The option's key in a config file: its long flag without the dashes (`max-turns`). */
export function configKey(spec: AnyOptionSpec): string {
  return longFlag(spec).slice(2);
}

export function helpFor(spec: AnyOptionSpec, command: TableCommand): string {
  return typeof spec.description === 'string' ? spec.description : spec.description[command];
}
