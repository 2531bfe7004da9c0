/**
 * Any OpenAI-compatible server: `/v1/models` gives ids, and the name says the rest. vLLM-style
 * servers also report the served context (`max_model_len`).
 */
import { fetchJson, type RequestOptions, tryJson } from './http.js';
import { modelRecord } from './model-record.js';
import type { DiscoveredModel, ServerFacts } from './types.js';
import { array, type JsonObject, object, positive, text } from './wire.js';

export async function listGenericModels(openAiBase: string, o: RequestOptions): Promise<DiscoveredModel[]> {
  const entries = array(object(await fetchJson(`${openAiBase}/models`, o))?.data).map(object);
  return entries.flatMap((m) => {
    const name = text(m?.id);
    if (m === null || name === null) return [];
    return [modelRecord({ name, kind: 'openai-compatible', contextLength: servedContext(m) })];
  });
}

export async function describeGeneric(
  openAiBase: string,
  model: string,
  o: RequestOptions,
): Promise<ServerFacts> {
  const entries = array(object(await tryJson(`${openAiBase}/models`, o))?.data).map(object);
  const entry = entries.find((m) => m?.id === model) ?? null;
  return {
    kind: 'openai-compatible',
    version: null,
    contextLength: entry === null ? null : servedContext(entry),
    trainedContextLength: null,
    parallelSlots: null,
    toolSupport: null,
  };
}

function servedContext(m: JsonObject): number | null {
  return positive(m.max_model_len) ?? positive(m.context_length) ?? positive(m.context_window);
}
