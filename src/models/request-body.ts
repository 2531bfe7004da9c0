import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { isPlainObject, parseJsonLenient } from './text-calls/json-scan.js';
import type { ChatMessage, ToolSpec } from './types.js';

export interface Sampling {
  temperature: number;
  seed?: number;
  topP?: number;
  maxTokens?: number;
}

export function buildChatRequest(
  model: string,
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  sampling: Sampling,
): ChatCompletionCreateParamsNonStreaming {
  return {
    model,
    messages: messages.map(toWireMessage),
    // Several servers reject an empty tools array, so a tool-less request sends none.
    ...(tools.length === 0 ? {} : { tools: tools.map(toWireTool) }),
    temperature: sampling.temperature,
    ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
    ...(sampling.topP === undefined ? {} : { top_p: sampling.topP }),
    ...(sampling.maxTokens === undefined ? {} : { max_tokens: sampling.maxTokens }),
    stream: false,
  };
}

export function toWireMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      if (message.toolCalls.length === 0) return { role: 'assistant', content: message.content ?? '' };
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: replayableArguments(call.rawArguments) },
        })),
      };
  }
}

/**
 * llama-server (and other Jinja-template servers) parse the arguments of earlier calls when they
 * render the history, and answer HTTP 500 to anything that is not a JSON object. Sending a broken
 * call back verbatim would turn one malformed reply into a failed trial, so it goes back as `{}`
 * (the loop has already told the model its arguments were bad).
 */
function replayableArguments(raw: string): string {
  const parsed = parseJsonLenient(raw);
  if (!parsed.ok || !isPlainObject(parsed.value)) return '{}';
  // Re-encode only when the lenient parse had to repair raw newlines that strict parsers refuse.
  return isStrictJson(raw) ? raw : JSON.stringify(parsed.value);
}

function isStrictJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function toWireTool(tool: ToolSpec): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
