import { z } from 'zod';
import type { CallIdAllocator } from './call-ids.js';
import { isPlainObject, parseJsonLenient } from './text-calls/json-scan.js';
import type { ParsedToolCall } from './types.js';

const WireToolCall = z.object({
  id: z.string().nullish().catch(null),
  function: z.object({ name: z.string().catch(''), arguments: z.unknown() }),
});

/** Structured `tool_calls`, whose `arguments` some servers send as an object instead of a JSON string. */
export function readNativeToolCalls(
  items: readonly unknown[],
  ids: CallIdAllocator,
): { calls: ParsedToolCall[]; problems: string[] } {
  const calls: ParsedToolCall[] = [];
  const problems: string[] = [];
  items.forEach((item, index) => {
    const parsed = WireToolCall.safeParse(item);
    if (!parsed.success) {
      problems.push(`tool_calls[${index}] has no function`);
      return;
    }
    const { rawArguments, args } = readArguments(parsed.data.function.arguments);
    const id = ids.take(parsed.data.id);
    calls.push({ id, name: parsed.data.function.name, rawArguments, arguments: args, source: 'native' });
  });
  return { calls, problems };
}

function readArguments(value: unknown): { rawArguments: string; args: Record<string, unknown> | null } {
  // No arguments at all is how some servers send a call that takes none.
  if (value === undefined || value === null) return { rawArguments: '{}', args: {} };
  if (isPlainObject(value)) return { rawArguments: JSON.stringify(value), args: value };
  if (typeof value !== 'string') return { rawArguments: JSON.stringify(value), args: null };
  if (value.trim() === '') return { rawArguments: value, args: {} };
  const parsed = parseJsonLenient(value);
  return { rawArguments: value, args: parsed.ok && isPlainObject(parsed.value) ? parsed.value : null };
}
