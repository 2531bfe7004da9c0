/**
 * LM Studio's own REST API. v1 (`/api/v1/models`, LM Studio 0.4+) reports size, parameters,
 * quantization, loaded context and `trained_for_tool_use`; v0 (`/api/v0/models`, 0.3.6+) reports
 * arch, quantization, max_context_length and state, so size is estimated from the name there.
 */
import { fetchJson, type RequestOptions, tryJson } from './http.js';
import { parseModelName, parseParameterSize } from './model-name.js';
import { modelRecord } from './model-record.js';
import type { DiscoveredModel, ServerFacts } from './types.js';
import { array, bool, type JsonObject, object, positive, text } from './wire.js';

export async function listLmStudioModels(root: string, o: RequestOptions): Promise<DiscoveredModel[]> {
  const v1 = await v1Models(root, o);
  if (v1 !== null) {
    return v1
      .filter((m) => m.type !== 'embedding')
      .flatMap((m) => {
        const name = text(m.key);
        if (name === null) return [];
        const quant = object(m.quantization);
        const params = text(m.params_string);
        return [
          modelRecord({
            name,
            kind: 'lmstudio',
            family: text(m.architecture),
            // `params_string` is "7B", or "30B-A3B" for a MoE model.
            parameters:
              params === null ? null : (parseParameterSize(params) ?? parseModelName(params).parameters),
            quantization: text(quant?.name),
            weightBytes: positive(m.size_bytes),
            contextLength: positive(m.max_context_length),
            toolSupport: bool(object(m.capabilities)?.trained_for_tool_use),
          }),
        ];
      });
  }
  const v0 = array(object(await fetchJson(`${root}/api/v0/models`, o))?.data).map(object);
  return v0.flatMap((m) => {
    const name = text(m?.id);
    if (m === null || name === null || m.type === 'embeddings') return [];
    return [
      modelRecord({
        name,
        kind: 'lmstudio',
        family: text(m.arch),
        quantization: text(m.quantization),
        contextLength: positive(m.max_context_length),
        toolSupport: v0ToolUse(m),
      }),
    ];
  });
}

export async function describeLmStudio(root: string, model: string, o: RequestOptions): Promise<ServerFacts> {
  const base = { kind: 'lmstudio' as const, version: null, parallelSlots: null };
  const v1 = await v1Models(root, o);
  if (v1 !== null) {
    const m = v1.find((e) => e.key === model || instances(e).some((i) => i?.id === model));
    const instance = instances(m ?? null).find((i) => i?.id === model) ?? instances(m ?? null)[0];
    return {
      ...base,
      // Not loaded yet: LM Studio picks the context when it loads the model, so it is unknown here.
      contextLength: positive(object(instance?.config)?.context_length),
      trainedContextLength: positive(m?.max_context_length),
      toolSupport: bool(object(m?.capabilities)?.trained_for_tool_use),
    };
  }
  const v0 = array(object(await tryJson(`${root}/api/v0/models`, o))?.data).map(object);
  const m = v0.find((e) => e?.id === model) ?? null;
  return {
    ...base,
    contextLength: positive(m?.loaded_context_length),
    trainedContextLength: positive(m?.max_context_length),
    toolSupport: m === null ? null : v0ToolUse(m),
  };
}

/** The v1 model list, or null on servers older than 0.4. */
async function v1Models(root: string, o: RequestOptions): Promise<JsonObject[] | null> {
  const body = object(await tryJson(`${root}/api/v1/models`, o));
  if (!Array.isArray(body?.models)) return null;
  return body.models.map(object).filter((m) => m !== null);
}

function instances(m: JsonObject | null): (JsonObject | null)[] {
  return array(m?.loaded_instances).map(object);
}

/** v0 lists capabilities only on newer builds; without the list, tool support is unknown. */
function v0ToolUse(m: JsonObject): boolean | null {
  return Array.isArray(m.capabilities) ? m.capabilities.includes('tool_use') : null;
}
