/**
 * The config file of `run` and `ladder` as a zod schema derived from the options table, and its JSON
 * Schema for editors (`agent-bench config schema run`). Imported only when a file is read or the
 * schema asked for: zod is not loaded for `--help`.
 */
import { z } from 'zod';
import type { ValueRule } from './rules.js';
import { configKey, helpFor, type TableCommand } from './spec.js';
import { optionsOf } from './table.js';

/** The key a JSON file may name its schema with (editors read it; the run does not). */
export const SCHEMA_KEY = '$schema';

/** A file's value as the rule has it (rules.ts checks a flag's text; the unit tests prove the two agree). */
export function valueSchema(rule: ValueRule): z.ZodType {
  switch (rule.kind) {
    case 'integer':
      return z.int().min(rule.min);
    case 'number':
      return rule.max === undefined ? z.number().min(rule.min) : z.number().min(rule.min).max(rule.max);
    case 'text':
      return z.string();
    case 'choice':
      return z.enum(rule.values);
    case 'parallel':
      return z.union([z.int().min(1), z.literal('auto')]);
    case 'list':
      return z.array(z.string());
    case 'switch':
      return z.boolean();
  }
}

/** Every option of `command` by its file key, each optional; any other key is refused. */
export function configSchema(command: TableCommand): z.ZodObject {
  const shape: Record<string, z.ZodType> = {
    [SCHEMA_KEY]: z
      .string()
      .optional()
      .meta({ description: 'this JSON Schema, for editors (not read by the run)' }),
  };
  for (const [, spec] of optionsOf(command)) {
    const annotations = {
      description: helpFor(spec, command),
      ...(spec.default === undefined ? {} : { default: spec.default }),
    };
    shape[configKey(spec)] = valueSchema(spec.rule).optional().meta(annotations);
  }
  return z.strictObject(shape).meta({
    title: `agent-bench ${command} --config FILE`,
    description: `options of agent-bench ${command}, named as their long flags without --; flags given on the command line override them`,
  });
}

export function configJsonSchema(command: TableCommand): Record<string, unknown> {
  return z.toJSONSchema(configSchema(command));
}
