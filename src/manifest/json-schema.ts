/**
 * JSON Schema for artifact checks, by ajv with ajv-formats' formats: a manifest says "valid JSON of
 * this shape" in JSON Schema as such (draft-07; a `$schema` naming draft 2019-09 or 2020-12 gets
 * that draft). A schema is compiled once, when the manifest loads; an unknown keyword or format is
 * refused then (ajv's strict mode), never silently ignored.
 *
 * The schema is the manifest author's, the value the model's: `pattern` and `patternProperties` are
 * matched by RE2 (ajv's `code.regExp`, util/linear-regex.ts), so no value can make them backtrack,
 * and a pattern RE2 cannot run is refused with the schema.
 */
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { LinearRegExp } from '../util/linear-regex.js';

export type JsonSchema = Readonly<Record<string, unknown>>;

/** A schema ajv cannot compile; the message is one line. */
class SchemaError extends Error {}

const linearRegExp = Object.assign((pattern: string) => new LinearRegExp(pattern), {
  code: 'LinearRegExp',
});

const OPTIONS: Options = {
  allErrors: true,
  // Schemas of different manifests may share an `$id`: none is registered under it.
  addUsedSchema: false,
  // Strict about keywords and formats (refused at load); lenient about types, which draft-07
  // schemas often leave implicit (`properties` without `type: object`).
  strictTypes: false,
  strictTuples: false,
  logger: false,
  code: { regExp: linearRegExp },
};

const DRAFTS = [
  { id: /json-schema\.org\/draft\/2020-12\//, make: () => new Ajv2020(OPTIONS) },
  { id: /json-schema\.org\/draft\/2019-09\//, make: () => new Ajv2019(OPTIONS) },
  { id: /(?:)/, make: () => new Ajv(OPTIONS) },
];
const validators = new Map<(typeof DRAFTS)[number], Ajv | Ajv2019 | Ajv2020>();

function validatorFor(schema: JsonSchema): Ajv | Ajv2019 | Ajv2020 {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  const draft = DRAFTS.find((d) => d.id.test(named)) as (typeof DRAFTS)[number];
  let ajv = validators.get(draft);
  if (ajv === undefined) {
    ajv = draft.make();
    formats.default(ajv);
    validators.set(draft, ajv);
  }
  return ajv;
}

/** Compiled schemas by their JSON text: the manifest's check and its loader share one compilation. */
const compiled = new Map<string, ValidateFunction>();

/** The schema compiled; throws SchemaError with ajv's reason. */
function compileSchema(schema: JsonSchema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (validate === undefined) {
    try {
      validate = validatorFor(schema).compile(schema);
    } catch (err) {
      throw new SchemaError((err as Error).message.replace(/\s*\n\s*/g, ' '));
    }
    compiled.set(key, validate);
  }
  return validate;
}

/** null when the value is a schema ajv compiles, else why not, in one line. */
export function schemaProblem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'a schema is an object';
  try {
    compileSchema(schema as JsonSchema);
    return null;
  } catch (err) {
    if (err instanceof SchemaError) return err.message;
    throw err;
  }
}

/**
 * Where the value breaks the schema (empty when it conforms), each as the failing instance path
 * (JSON Pointer, `/rows/2/amount`; `/` for the value itself) and ajv's message.
 */
export function validateJson(value: unknown, schema: JsonSchema): string[] {
  const validate = compileSchema(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map(describeError);
}

function describeError(e: ErrorObject): string {
  const at = e.instancePath === '' ? '/' : e.instancePath;
  if (e.keyword === 'additionalProperties')
    return `${at}: property ${JSON.stringify(e.params.additionalProperty)} is not allowed`;
  return `${at}: ${e.message ?? e.keyword}`;
}
