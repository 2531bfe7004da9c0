/**
 * Context overflow in the embedded backend. When a conversation outgrows the context, node-llama-cpp
 * does what Ollama does: it silently drops the oldest turns (its default context shift) and answers
 * anyway. A model that did not see the whole conversation was not measured on it, so that is a
 * context overflow, the same infrastructure failure llama-server reports with HTTP 400.
 */
import type { ChatHistoryItem, ChatModelFunctions, LlamaChat } from 'node-llama-cpp';
import { ModelRequestError } from './types.js';

/** node-llama-cpp says that nothing fits only in words (plain Errors). */
export function isContextTooSmall(err: unknown): boolean {
  return err instanceof Error && /context size .*too small|fits? the context size/i.test(err.message);
}

export function contextOverflowError(
  chat: LlamaChat,
  history: ChatHistoryItem[],
  functions: ChatModelFunctions | undefined,
  name: string,
  cause?: unknown,
): ModelRequestError {
  const contextSize = chat.sequence.context.contextSize;
  const promptTokens = conversationTokens(chat, history, functions);
  const size = promptTokens === null ? '' : ` (${promptTokens} tokens)`;
  return new ModelRequestError(
    `${name}: context overflow: the conversation${size} and the reply do not fit the context of ${contextSize} tokens`,
    { kind: 'context_overflow', promptTokens, contextSize },
    [],
    cause === undefined ? undefined : { cause },
  );
}

/** The whole conversation as the chat wrapper renders it, in tokens; null if it cannot be rendered. */
function conversationTokens(
  chat: LlamaChat,
  history: ChatHistoryItem[],
  functions: ChatModelFunctions | undefined,
): number | null {
  try {
    const { contextText } = chat.chatWrapper.generateContextState({
      chatHistory: history,
      ...(functions === undefined ? {} : { availableFunctions: functions }),
    });
    return contextText.tokenize(chat.model.tokenizer).length;
  } catch {
    return null;
  }
}
