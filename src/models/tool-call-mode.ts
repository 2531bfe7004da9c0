/**
 * `run --tool-calls native|text|both`: which tool-call channel a model is measured on. `both` (the
 * default) sends the tools natively and also reads calls the model prints as text. `native` reads
 * native calls only: a call printed as text is not executed, and the reply stands as an answer (the
 * "without text-call parsing" comparison). `text` sends no tools: the model is told the tools and the
 * `<tool_call>` text format in a system message, and its text calls are parsed (text-tool-calls.ts).
 * A wrapper around any ChatModel, so no backend knows about it.
 */
import type { ChatMessage, ChatModel, ModelReply, ToolSpec } from './types.js';

export const TOOL_CALL_MODES = ['native', 'text', 'both'] as const;
export type ToolCallMode = (typeof TOOL_CALL_MODES)[number];

export function withToolCallMode(model: ChatModel, mode: ToolCallMode): ChatModel {
  if (mode === 'both') return model;
  const complete =
    mode === 'native'
      ? async (messages: readonly ChatMessage[], tools: readonly ToolSpec[], signal?: AbortSignal) =>
          nativeOnly(await model.complete(messages, tools, signal))
      : (messages: readonly ChatMessage[], tools: readonly ToolSpec[], signal?: AbortSignal) =>
          model.complete(tools.length === 0 ? messages : toldTextFormat(messages, tools), [], signal);
  return {
    name: model.name,
    ...(model.replaysReference === true ? { replaysReference: true as const } : {}),
    complete,
  };
}

/**
 * The reply without its text calls; what they were is put back into the text as the model wrote them
 * in substance (`<tool_call>` JSON), so the transcript shows the call that was not run.
 */
function nativeOnly(reply: ModelReply): ModelReply {
  const text = reply.toolCalls.filter((c) => c.source === 'text');
  if (text.length === 0) return reply;
  const printed = text.map(
    (c) => `<tool_call>{"name": ${JSON.stringify(c.name)}, "arguments": ${c.rawArguments}}</tool_call>`,
  );
  return {
    ...reply,
    text: [reply.text, ...printed].filter((t) => t !== '').join('\n'),
    toolCalls: reply.toolCalls.filter((c) => c.source !== 'text'),
  };
}

/** The tools and the text format, in a system message ahead of the conversation's own. */
function textFormatPrompt(tools: readonly ToolSpec[]): string {
  return [
    'You can call these tools. To call one, write on its own line:',
    '<tool_call>{"name": "TOOL_NAME", "arguments": {...}}</tool_call>',
    'One <tool_call> per call; you may write several. The result comes back in the next message. Write no <tool_call> when you give your final answer.',
    '',
    'Tools (name, description, JSON Schema of the arguments):',
    ...tools.map((t) => `- ${t.name}: ${t.description}\n  ${JSON.stringify(t.parameters)}`),
  ].join('\n');
}

function toldTextFormat(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): ChatMessage[] {
  const prompt = textFormatPrompt(tools);
  const [first, ...rest] = messages;
  // One system message: some chat templates take only the first.
  if (first?.role === 'system')
    return [{ role: 'system', content: `${first.content}\n\n${prompt}` }, ...rest];
  return [{ role: 'system', content: prompt }, ...messages];
}
