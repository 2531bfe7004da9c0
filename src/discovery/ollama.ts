/**
 * Ollama: `/api/tags` lists models with size, parameter_size and quantization_level; `POST /api/show`
 * adds model_info (exact parameter count, training context) and capabilities ("tools"); `/api/ps` says
 * the context a loaded model actually runs with.
 */
import { fetchJson, type RequestOptions, tryJson } from './http.js';
import { parseParameterSize } from './model-name.js';
import { modelRecord } from './model-record.js';
import type { DiscoveredModel, ServerFacts } from './types.js';
import { array, type JsonObject, object, positive, text } from './wire.js';

export async function listOllamaModels(root: string, o: RequestOptions): Promise<DiscoveredModel[]> {
  const tags = object(await fetchJson(`${root}/api/tags`, o));
  const entries = array(tags?.models).map(object);
  const models = await Promise.all(
    entries.map(async (m) => {
      const name = text(m?.name) ?? text(m?.model);
      if (m === null || name === null) return null;
      const show = await showModel(root, name, o);
      const caps = capabilities(show);
      // Embedding-only models cannot chat: not candidates.
      if (caps?.includes('embedding') && !caps.includes('completion')) return null;
      const details = object(m.details) ?? object(show?.details);
      const info = object(show?.model_info);
      const exact = positive(info?.['general.parameter_count']);
      const size = text(details?.parameter_size);
      return modelRecord({
        name,
        kind: 'ollama',
        family: text(details?.family),
        parameters: exact !== null ? exact / 1e9 : size === null ? null : parseParameterSize(size),
        quantization: text(details?.quantization_level),
        weightBytes: positive(m.size),
        contextLength: trainedContext(info),
        toolSupport: caps === null ? null : caps.includes('tools'),
      });
    }),
  );
  return models.filter((m) => m !== null);
}

export async function describeOllama(root: string, model: string, o: RequestOptions): Promise<ServerFacts> {
  const [version, show, ps] = await Promise.all([
    tryJson(`${root}/api/version`, o),
    showModel(root, model, o),
    tryJson(`${root}/api/ps`, o),
  ]);
  const loaded = array(object(ps)?.models)
    .map(object)
    .find((m) => m !== null && (m.name === model || m.model === model));
  // The context a run gets: the loaded model's, else the model's num_ctx parameter; otherwise Ollama
  // picks it at load time (OLLAMA_CONTEXT_LENGTH or its default), which nothing here can see.
  const numCtx = /^num_ctx\s+(\d+)\s*$/m.exec(text(show?.parameters) ?? '');
  const caps = capabilities(show);
  return {
    kind: 'ollama',
    version: text(object(version)?.version),
    contextLength: positive(loaded?.context_length) ?? (numCtx?.[1] === undefined ? null : Number(numCtx[1])),
    trainedContextLength: trainedContext(object(show?.model_info)),
    parallelSlots: null,
    toolSupport: caps === null ? null : caps.includes('tools'),
  };
}

async function showModel(root: string, model: string, o: RequestOptions): Promise<JsonObject | null> {
  return object(await tryJson(`${root}/api/show`, { ...o, body: { model } }));
}

/** Older Ollama versions send no capabilities: then tool support is unknown. */
function capabilities(show: JsonObject | null): string[] | null {
  if (!Array.isArray(show?.capabilities)) return null;
  return show.capabilities.filter((c): c is string => typeof c === 'string');
}

function trainedContext(info: JsonObject | null): number | null {
  const arch = text(info?.['general.architecture']);
  return arch === null ? null : positive(info?.[`${arch}.context_length`]);
}
