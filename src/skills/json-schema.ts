/**
 * A small JSON Schema subset for artifact checks, so a manifest can say "valid JSON of this shape"
 * without a validator dependency: type, properties, required, additionalProperties (boolean or a
 * schema), items, enum, const, minimum, maximum, minLength, maxLength, minItems, maxItems, pattern.
 * Other keywords are refused when the manifest is loaded rather than silently ignored.
 */
import { BoundedRegExp } from '../util/bounded-regex.js';
import { nestedQuantifierProblem } from './regex.js';

export type JsonSchema = Readonly<Record<string, unknown>>;

const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  '$schema',
  '$id',
  'title',
  'description',
]);
const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/** Problems with the schema itself, each with its path inside the schema. */
export function schemaProblems(schema: unknown, at = '#'): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return [`${at}: a schema is an object`];
  const s = schema as Record<string, unknown>;
  const out = Object.keys(s)
    .filter((k) => !KEYWORDS.has(k))
    .map((k) => `${at}: unsupported keyword "${k}"`);
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
  for (const t of types)
    if (typeof t !== 'string' || !TYPES.has(t)) out.push(`${at}/type: unknown type ${JSON.stringify(t)}`);
  if (typeof s.pattern === 'string') {
    try {
      const problem = nestedQuantifierProblem(new RegExp(s.pattern, 'u').source);
      if (problem !== null) out.push(`${at}/pattern: ${problem}`);
    } catch (err) {
      out.push(`${at}/pattern: ${(err as Error).message}`);
    }
  }
  if (typeof s.properties === 'object' && s.properties !== null) {
    for (const [k, v] of Object.entries(s.properties))
      out.push(...schemaProblems(v, `${at}/properties/${k}`));
  }
  if (s.items !== undefined) out.push(...schemaProblems(s.items, `${at}/items`));
  if (typeof s.additionalProperties === 'object')
    out.push(...schemaProblems(s.additionalProperties, `${at}/additionalProperties`));
  return out;
}

/** Where the value breaks the schema (empty when it conforms), e.g. `$.rows[2].amount: expected number`. */
export function validateJson(value: unknown, schema: JsonSchema, at = '$'): string[] {
  const out: string[] = [];
  const types =
    schema.type === undefined
      ? []
      : Array.isArray(schema.type)
        ? (schema.type as string[])
        : [schema.type as string];
  if (types.length > 0 && !types.some((t) => isType(value, t)))
    return [`${at}: expected ${types.join(' or ')}`];
  if (schema.const !== undefined && !same(value, schema.const))
    out.push(`${at}: expected ${JSON.stringify(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(value, e)))
    out.push(`${at}: expected one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      out.push(`${at}: below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      out.push(`${at}: above ${schema.maximum}`);
  }
  if (typeof value === 'string') {
    const n = [...value].length;
    if (typeof schema.minLength === 'number' && n < schema.minLength)
      out.push(`${at}: shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && n > schema.maxLength)
      out.push(`${at}: longer than ${schema.maxLength}`);
    if (typeof schema.pattern === 'string' && !patternOf(schema.pattern).test(value))
      out.push(`${at}: does not match ${schema.pattern}`);
  }
  if (Array.isArray(value)) out.push(...arrayProblems(value, schema, at));
  else if (typeof value === 'object' && value !== null)
    out.push(...objectProblems(value as Record<string, unknown>, schema, at));
  return out;
}

function arrayProblems(value: readonly unknown[], schema: JsonSchema, at: string): string[] {
  const out: string[] = [];
  if (typeof schema.minItems === 'number' && value.length < schema.minItems)
    out.push(`${at}: fewer than ${schema.minItems} items`);
  if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
    out.push(`${at}: more than ${schema.maxItems} items`);
  const items = schema.items;
  if (isSchema(items))
    for (const [i, v] of value.entries()) out.push(...validateJson(v, items, `${at}[${i}]`));
  return out;
}

function objectProblems(value: Record<string, unknown>, schema: JsonSchema, at: string): string[] {
  const out: string[] = [];
  const props = isSchema(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  if (Array.isArray(schema.required)) {
    for (const k of schema.required)
      if (typeof k === 'string' && !Object.hasOwn(value, k)) out.push(`${at}.${k}: missing`);
  }
  for (const [k, v] of Object.entries(value)) {
    const sub = Object.hasOwn(props, k) ? props[k] : undefined;
    if (sub !== undefined) out.push(...validateJson(v, sub, `${at}.${k}`));
    else if (schema.additionalProperties === false) out.push(`${at}.${k}: not allowed`);
    else if (isSchema(schema.additionalProperties))
      out.push(...validateJson(v, schema.additionalProperties, `${at}.${k}`));
  }
  return out;
}

/** Compiled once per pattern; each match is time-bounded, since the value is the model's. */
const patterns = new Map<string, BoundedRegExp>();
function patternOf(source: string): BoundedRegExp {
  let re = patterns.get(source);
  if (re === undefined) {
    re = new BoundedRegExp(new RegExp(source, 'u'));
    patterns.set(source, re);
  }
  return re;
}

function isSchema(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isType(v: unknown, t: string): boolean {
  switch (t) {
    case 'object':
      return isSchema(v);
    case 'array':
      return Array.isArray(v);
    case 'integer':
      return Number.isInteger(v);
    case 'null':
      return v === null;
    default:
      return typeof v === t;
  }
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
