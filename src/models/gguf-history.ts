/**
 * Our OpenAI-form messages as node-llama-cpp chat history. node-llama-cpp keeps a function call
 * and its result together inside the model response, so each tool message is folded into the
 * assistant call it answers.
 */
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from 'node-llama-cpp';
import { parseJsonLenient } from './text-calls/json-scan.js';
import type { ChatMessage } from './types.js';

/** Shown as the result of a call the history holds no tool message for (e.g. the loop stopped). */
const NO_RESULT = '(no result)';

export function toLlamaHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  const answered = new Set<string>();

  const history: ChatHistoryItem[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        history.push({ type: 'system', text: m.content });
        break;
      case 'user':
        history.push({ type: 'user', text: m.content });
        break;
      case 'assistant': {
        const response: ChatModelResponse['response'] = [];
        if (m.content !== null && m.content !== '') response.push(m.content);
        for (const call of m.toolCalls) {
          answered.add(call.id);
          response.push(functionCall(call.name, call.rawArguments, results.get(call.id) ?? NO_RESULT));
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool':
        // A result whose call is not in the history cannot be attached: keep it visible as user text.
        if (!answered.has(m.toolCallId))
          history.push({ type: 'user', text: `Tool result (${m.toolCallId}):\n${m.content}` });
        break;
    }
  }
  return history;
}

function functionCall(name: string, rawArguments: string, result: string): ChatModelFunctionCall {
  // Broken arguments are replayed as the raw string, so the model sees what it wrote.
  const parsed = parseJsonLenient(rawArguments);
  return { type: 'functionCall', name, params: parsed.ok ? parsed.value : rawArguments, result };
}
