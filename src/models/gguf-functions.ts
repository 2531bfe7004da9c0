/**
 * Our tool specs as node-llama-cpp functions, and its function calls back as ParsedToolCalls.
 * node-llama-cpp only declares the functions (grammar-constrained calls); it never runs them here:
 * the agent loop executes every call in the sandbox.
 */
import type { ChatModelFunctions, GbnfJsonSchema } from 'node-llama-cpp';
import type { CallIdAllocator } from './call-ids.js';
import { isPlainObject } from './text-calls/json-scan.js';
import type { ParsedToolCall, ToolSpec } from './types.js';

/** A function call as node-llama-cpp returns it (`LlamaChatResponse.functionCalls`). */
export interface LlamaFunctionCall {
  functionName: string;
  params: unknown;
}

/**
 * node-llama-cpp makes every declared property required, so an optional one becomes
 * `oneOf [its schema, null]`; the model then writes null for "not given", which is stripped again
 * in `toParsedToolCalls`.
 */
export function toLlamaFunctions(tools: readonly ToolSpec[]): ChatModelFunctions {
  const functions: Record<string, { description: string; params: GbnfJsonSchema }> = {};
  for (const tool of tools) {
    functions[tool.name] = { description: tool.description, params: nullableOptionals(tool.parameters) };
  }
  return functions;
}

function nullableOptionals(schema: Record<string, unknown>): GbnfJsonSchema {
  const { properties, required } = schema;
  if (!isPlainObject(properties)) return schema as GbnfJsonSchema;
  const requiredNames = new Set(Array.isArray(required) ? required : []);
  const converted: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) {
    if (requiredNames.has(name) || !isPlainObject(prop)) {
      converted[name] = prop;
      continue;
    }
    const { description, ...rest } = prop;
    converted[name] = {
      oneOf: [rest, { type: 'null' }],
      ...(typeof description === 'string' ? { description } : {}),
    };
  }
  // `required` is ignored by node-llama-cpp (all keys are required) and would contradict the nulls.
  const { required: _ignored, ...withoutRequired } = schema;
  return { ...withoutRequired, properties: converted } as GbnfJsonSchema;
}

/** Each call gets a fresh id; nulls standing for omitted optional arguments are dropped. */
export function toParsedToolCalls(
  calls: readonly LlamaFunctionCall[],
  tools: readonly ToolSpec[],
  ids: CallIdAllocator,
): ParsedToolCall[] {
  return calls.map((call) => {
    const spec = tools.find((t) => t.name === call.functionName);
    const args = isPlainObject(call.params) ? withoutOmitted(call.params, spec) : null;
    return {
      id: ids.take(),
      name: call.functionName,
      rawArguments: JSON.stringify(args ?? call.params ?? null),
      arguments: args,
      source: 'native',
    };
  });
}

function withoutOmitted(
  params: Record<string, unknown>,
  spec: ToolSpec | undefined,
): Record<string, unknown> {
  const required = spec?.parameters.required;
  const requiredNames = new Set(Array.isArray(required) ? required : []);
  return Object.fromEntries(Object.entries(params).filter(([k, v]) => v !== null || requiredNames.has(k)));
}
