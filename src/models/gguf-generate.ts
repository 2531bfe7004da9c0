/** One reply of an embedded model: history in, ModelReply out, with usage and timing measured here. */
import type { LlamaChat, LlamaChatResponse } from 'node-llama-cpp';
import { errorMessage } from '../util/errors.js';
import type { CallIdAllocator } from './call-ids.js';
import { contextOverflowError, isContextTooSmall } from './gguf-context.js';
import { toLlamaFunctions, toParsedToolCalls } from './gguf-functions.js';
import { toLlamaHistory } from './gguf-history.js';
import { replyTimings, type SpeedMeter } from './gguf-speed.js';
import type { Sampling } from './request-body.js';
import { parseTextToolCalls } from './text-tool-calls.js';
import { type ChatMessage, type ModelReply, ModelRequestError, type ToolSpec } from './types.js';

/** A babbling or looping model stops here; long enough for a write_file of a whole source file. */
const DEFAULT_MAX_TOKENS = 2048;

export interface ReplyRequest {
  chat: LlamaChat;
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  signal: AbortSignal | undefined;
  sampling: Sampling;
  ids: CallIdAllocator;
  speed: SpeedMeter;
  /** Model name, for error messages. */
  name: string;
}

/** The same finish reasons the OpenAI-compatible backends record. */
const FINISH_REASONS: Record<LlamaChatResponse['metadata']['stopReason'], string> = {
  eogToken: 'stop',
  stopGenerationTrigger: 'stop',
  customStopTrigger: 'stop',
  functionCalls: 'tool_calls',
  maxTokens: 'length',
  abort: 'abort',
};

export async function generateReply(req: ReplyRequest): Promise<ModelReply> {
  const { chat, sampling, signal } = req;
  signal?.throwIfAborted();
  const meter = chat.sequence.tokenMeter;
  const before = meter.getState();
  const started = performance.now();
  let firstTokenAt: number | null = null;
  const onFirstToken = (): void => {
    firstTokenAt ??= performance.now();
  };

  const history = toLlamaHistory(req.messages);
  const functions = req.tools.length === 0 ? undefined : toLlamaFunctions(req.tools);
  let response: LlamaChatResponse<ReturnType<typeof toLlamaFunctions>>;
  try {
    response = await chat.generateResponse(history, {
      ...(functions === undefined ? {} : { functions }),
      maxTokens: sampling.maxTokens ?? DEFAULT_MAX_TOKENS,
      temperature: sampling.temperature,
      ...(sampling.seed === undefined ? {} : { seed: sampling.seed }),
      ...(sampling.topP === undefined ? {} : { topP: sampling.topP }),
      ...(signal === undefined ? {} : { signal }),
      onResponseChunk: onFirstToken,
      onFunctionCallParamsChunk: onFirstToken,
    });
  } catch (err) {
    // An abort is the caller's decision and goes up as it is; anything else is llama.cpp's failure.
    if (signal?.aborted) throw err;
    if (isContextTooSmall(err)) throw contextOverflowError(chat, history, functions, req.name, err);
    throw new ModelRequestError(
      `${req.name}: generation failed: ${errorMessage(err).split('\n')[0]}`,
      { kind: 'server_error' },
      [],
      { cause: err },
    );
  }
  // Set when node-llama-cpp had to drop part of the conversation to make room.
  if (response.lastEvaluation.contextShiftMetadata != null)
    throw contextOverflowError(chat, history, functions, req.name);
  const ended = performance.now();

  const after = meter.getState();
  const completionTokens = after.usedOutputTokens - before.usedOutputTokens;
  // The whole prompt, cached prefix included, as llama-server reports prompt_tokens.
  const promptTokens = Math.max(0, chat.sequence.contextTokens.length - completionTokens);
  const firstAt = firstTokenAt ?? ended;
  const timing = {
    promptEvaluated: after.usedInputTokens - before.usedInputTokens,
    promptMs: firstAt - started,
    completionTokens,
    decodeMs: ended - firstAt,
  };
  req.speed.add(timing);

  const base = {
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens },
    // As llama-server's `timings`, so a ladder over gguf: rungs reports the same speed columns.
    timings: replyTimings(timing),
    finishReason: FINISH_REASONS[response.metadata.stopReason],
    latencyMs: Math.round(ended - started),
    retries: [],
  };
  const native = response.functionCalls ?? [];
  if (native.length > 0) {
    return {
      ...base,
      text: response.response,
      toolCalls: toParsedToolCalls(native, req.tools, req.ids),
      malformed: null,
    };
  }
  // A model whose chat wrapper does not match its training may still print calls as text.
  const found = parseTextToolCalls(response.response);
  const toolCalls = found.calls.map((c) => ({ ...c, id: req.ids.take(), source: 'text' as const }));
  const malformed = found.errors.length === 0 ? null : found.errors.join('; ');
  return { ...base, text: found.remainingText, toolCalls, malformed };
}
