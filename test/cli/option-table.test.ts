/**
 * The options table of run and ladder (src/cli/option-table/) against what comes from it: commander's
 * options and help, the config file's zod schema and its JSON Schema export.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { configSchemaCommand } from '../../src/cli/commands/config-schema.js';
import { buildProgram } from '../../src/cli/main.js';
import { configJsonSchema, valueSchema } from '../../src/cli/option-table/config-schema.js';
import { keepsRule, ruleText } from '../../src/cli/option-table/rules.js';
import { configKey, helpFor, TABLE_COMMANDS } from '../../src/cli/option-table/spec.js';
import { optionsOf } from '../../src/cli/option-table/table.js';

function commandNamed(name: string): Command {
  const command = buildProgram().commands.find((c) => c.name() === name);
  if (command === undefined) throw new Error(`no command ${name}`);
  return command;
}

const words = (text: string) => text.replace(/\s+/g, ' ');

describe.each(TABLE_COMMANDS)('%s and the options table', (name) => {
  const command = commandNamed(name);

  it("has the table's options, in its order, and none other but --config", () => {
    const registered = command.options.map((o) => o.attributeName());
    expect(registered).toEqual([...optionsOf(name).map(([key]) => key), 'config']);
  });

  it("gives each the table's flag, value name and default", () => {
    for (const [key, spec] of optionsOf(name)) {
      const option = command.options.find((o) => o.attributeName() === key);
      expect(option?.flags, key).toBe(spec.value === undefined ? spec.flag : `${spec.flag} <${spec.value}>`);
      expect(option?.defaultValue, key).toEqual(spec.default);
      expect(option?.argChoices, key).toEqual(spec.rule.kind === 'choice' ? spec.rule.values : undefined);
    }
  });

  it("lists every option in --help with the table's description", () => {
    const help = words(command.helpInformation());
    for (const [key, spec] of optionsOf(name)) expect(help, key).toContain(words(helpFor(spec, name)));
  });

  it('refuses a bad value with the rule, as the flag said it before the table', () => {
    const parse = (flag: string, text: string) => {
      const option = command.options.find((o) => o.long === flag);
      return option?.parseArg?.(text, undefined);
    };
    expect(() => parse('--k', '0')).toThrow('--k must be an integer >= 1');
    expect(() => parse('--cpus', '0.05')).toThrow('--cpus must be a number >= 0.1');
    expect(() => parse('--parallel', 'x')).toThrow('--parallel must be an integer >= 1 or auto');
    expect(() => parse('--seed', '')).toThrow('--seed must be an integer >= 0');
    expect(parse('--parallel', 'auto')).toBe('auto');
    expect(parse('--temperature', '0.7')).toBe(0.7);
  });
});

describe('the rules', () => {
  const SAMPLES: unknown[] = [
    0,
    1,
    2,
    -1,
    0.05,
    0.1,
    0.5,
    1.5,
    16,
    64,
    1e3,
    2 ** 53,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '',
    'x',
    'auto',
    'dev',
    'native',
    '3',
    true,
    false,
    null,
    [],
    ['a', 'b'],
    [1],
    {},
  ];

  it.each(optionsOf().map(([key, spec]) => [key, spec.rule] as const))(
    '%s: the flag (rules.ts) and the file (zod) accept the same values',
    (_key, rule) => {
      for (const value of SAMPLES)
        expect(
          valueSchema(rule).safeParse(value).success,
          `${JSON.stringify(value)}: ${ruleText(rule)}`,
        ).toBe(keepsRule(rule, value));
    },
  );
});

describe('config schema', () => {
  it.each(TABLE_COMMANDS)('of %s lists every key of its options, and no other', (name) => {
    const schema = configJsonSchema(name);
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties as object)).toEqual([
      '$schema',
      ...optionsOf(name).map(([, spec]) => configKey(spec)),
    ]);
    expect((schema.properties as Record<string, unknown>)['max-turns']).toMatchObject({
      type: 'integer',
      minimum: 1,
      description: "override every task's max turns (marks the run non-comparable)",
    });
  });

  it('is what `agent-bench config schema` prints', () => {
    let out = '';
    configSchemaCommand({ command: 'ladder', write: (text) => (out += text) });
    expect(JSON.parse(out)).toEqual(configJsonSchema('ladder'));
    expect(JSON.parse(out).properties['models-from-server']).toEqual({
      description: 'every model the server lists',
      default: false,
      type: 'boolean',
    });
  });
});
