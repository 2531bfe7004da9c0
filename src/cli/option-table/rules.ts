/**
 * What an option's value must be, as data. The flag's text is checked here; a config file's value is
 * checked by the zod schema config-schema.ts builds from the same rule (that module, and zod, load
 * only when a file is read, so `--help` stays instant). test/cli/option-table.test.ts proves the two
 * accept the same values.
 */
import { InvalidArgumentError } from 'commander';

export type ValueRule =
  | { kind: 'integer'; min: number }
  | { kind: 'number'; min: number; max?: number }
  | { kind: 'text' }
  | { kind: 'choice'; values: readonly string[] }
  /** `--parallel`: an integer >= 1, or `auto` (the server's slot count). */
  | { kind: 'parallel' }
  /** A repeatable flag: each use adds one; a file gives the list. */
  | { kind: 'list' }
  | { kind: 'switch' };

/** A rule that yields a `T` (the type parameter only lets the table's types check each entry). */
export type Rule<T> = ValueRule & { readonly yields?: T };

export const integer = (min: number): Rule<number> => ({ kind: 'integer', min });
export const atLeast = (min: number): Rule<number> => ({ kind: 'number', min });
export const PROBABILITY: Rule<number> = { kind: 'number', min: 0, max: 1 };
export const TEXT: Rule<string> = { kind: 'text' };
export const choice = <const V extends string>(values: readonly V[]): Rule<V> => ({ kind: 'choice', values });
export const PARALLEL: Rule<number | 'auto'> = { kind: 'parallel' };
export const LIST: Rule<string[]> = { kind: 'list' };
export const SWITCH: Rule<boolean> = { kind: 'switch' };

/** The rule in words, after "must be": `an integer >= 1`. */
export function ruleText(rule: ValueRule): string {
  switch (rule.kind) {
    case 'integer':
      return `an integer >= ${rule.min}`;
    case 'number':
      return rule.max === undefined ? `a number >= ${rule.min}` : `a number from ${rule.min} to ${rule.max}`;
    case 'text':
      return 'a string';
    case 'choice':
      return `one of ${rule.values.join(', ')}`;
    case 'parallel':
      return 'an integer >= 1 or auto';
    case 'list':
      return 'a list of strings';
    case 'switch':
      return 'true or false';
  }
}

/** Whether a value, in JSON's types (a file's, or a flag's text once read), keeps the rule. */
export function keepsRule(rule: ValueRule, value: unknown): boolean {
  switch (rule.kind) {
    case 'integer':
      return Number.isSafeInteger(value) && (value as number) >= rule.min;
    case 'number':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        value >= rule.min &&
        (rule.max === undefined || value <= rule.max)
      );
    case 'text':
      return typeof value === 'string';
    case 'choice':
      return typeof value === 'string' && rule.values.includes(value);
    case 'parallel':
      return value === 'auto' || keepsRule({ kind: 'integer', min: 1 }, value);
    case 'list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'switch':
      return typeof value === 'boolean';
  }
}

/**
 * A number-valued flag's text as its value, or commander's InvalidArgumentError saying the rule:
 * `--k must be an integer >= 1`. Blank text is no number (Number('') would be 0).
 */
export function fromFlagText<T>(rule: Rule<T>, flag: string, text: string): T {
  const value =
    rule.kind === 'parallel' && text === 'auto' ? 'auto' : text.trim() === '' ? Number.NaN : Number(text);
  if (!keepsRule(rule, value)) throw new InvalidArgumentError(`${flag} must be ${ruleText(rule)}`);
  // keepsRule said it is what the rule yields.
  return value as T;
}
