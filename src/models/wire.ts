/**
 * What OpenAI-compatible servers actually send back, which is often less than the OpenAI spec
 * promises. Everything is read leniently here, once; past this file, replies are clean ModelReply data.
 */
import { z } from 'zod';
import type { CallIdAllocator } from './call-ids.js';
import { readNativeToolCalls } from './native-tool-calls.js';
import { parseTextToolCalls } from './text-tool-calls.js';
import type { ModelReply } from './types.js';

export type ReplyContent = Omit<ModelReply, 'latencyMs' | 'retries'>;

const WireMessage = z.object({
  // Text parts arrays come from a few servers; `reasoning_content` is dropped by design.
  content: z
    .union([z.string(), z.array(z.unknown())])
    .nullish()
    .catch(null),
  tool_calls: z.array(z.unknown()).nullish().catch(null),
});

const WireCompletion = z.object({
  choices: z
    .array(z.object({ message: WireMessage, finish_reason: z.string().nullish().catch(null) }))
    .min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish().catch(null),
  // llama-server times each reply itself: the prompt's and the generation's tokens and milliseconds.
  timings: z
    .object({
      prompt_n: z.number(),
      prompt_ms: z.number(),
      predicted_n: z.number(),
      predicted_ms: z.number(),
    })
    .nullish()
    .catch(null),
});

const WireErrorBody = z.object({ error: z.object({ message: z.string() }) });

/** Never throws: a reply that cannot be read comes back with `malformed` set and no calls. */
export function readCompletion(body: string, ids: CallIdAllocator): ReplyContent {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return malformedReply(`reply body is not JSON: ${JSON.stringify(body.slice(0, 60))}`);
  }
  const parsed = WireCompletion.safeParse(json);
  if (!parsed.success) {
    const said = WireErrorBody.safeParse(json);
    return malformedReply(
      said.success
        ? `reply has no choices; server said: ${said.data.error.message}`
        : 'reply has no choices[0].message',
    );
  }
  const { choices, usage, timings } = parsed.data;
  const choice = choices[0];
  if (choice === undefined) return malformedReply('reply has no choices');
  const content = contentText(choice.message.content);
  const native = readNativeToolCalls(choice.message.tool_calls ?? [], ids);
  const base = {
    usage: usage ?? null,
    finishReason: choice.finish_reason ?? null,
    ...(timings == null
      ? {}
      : {
          timings: {
            prompt_tokens: timings.prompt_n,
            prompt_ms: timings.prompt_ms,
            predicted_tokens: timings.predicted_n,
            predicted_ms: timings.predicted_ms,
          },
        }),
  };
  if (native.calls.length > 0 || native.problems.length > 0) {
    return { ...base, text: content, toolCalls: native.calls, malformed: joinProblems(native.problems) };
  }
  const found = parseTextToolCalls(content);
  const toolCalls = found.calls.map((c) => ({ ...c, id: ids.take(), source: 'text' as const }));
  return { ...base, text: found.remainingText, toolCalls, malformed: joinProblems(found.errors) };
}

function contentText(content: string | unknown[] | null | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      typeof part === 'object' && part !== null && 'text' in part && typeof part.text === 'string'
        ? part.text
        : '',
    )
    .join('');
}

function malformedReply(reason: string): ReplyContent {
  return { text: '', toolCalls: [], usage: null, finishReason: null, malformed: reason };
}

function joinProblems(problems: string[]): string | null {
  return problems.length === 0 ? null : problems.join('; ');
}
