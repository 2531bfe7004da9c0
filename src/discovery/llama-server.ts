/**
 * llama-server: `/v1/models` carries `meta` (n_params, size, n_ctx_train, and in recent builds ftype);
 * `/props` says the build, the per-slot context (default_generation_settings.n_ctx), total_slots,
 * model_ftype and what the chat template supports (chat_template_caps). The quantization is what the
 * server reports; builds that do not report it leave it to the GGUF file itself (when the server is
 * on this machine and says where its model is), else to the model's name.
 */
import { readGgufHeader } from './gguf.js';
import { fetchJson, type RequestOptions, type ServerUrls, tryJson } from './http.js';
import { modelRecord } from './model-record.js';
import type { DiscoveredModel, ServerFacts } from './types.js';
import { array, bool, type JsonObject, object, positive, text } from './wire.js';

export async function listLlamaServerModels(urls: ServerUrls, o: RequestOptions): Promise<DiscoveredModel[]> {
  const [list, props] = await Promise.all([
    fetchJson(`${urls.openAiBase}/models`, o),
    tryJson(`${urls.root}/props`, o),
  ]);
  const entries = array(object(list)?.data).map(object);
  const single = entries.length === 1;
  const servedType = single ? ftypeName(object(props)?.model_ftype) : null;
  const modelPath = single ? text(object(props)?.model_path) : null;
  const needsFile = entries.some((m) => ftypeName(object(m?.meta)?.ftype) === null) && servedType === null;
  const fileType =
    needsFile && modelPath !== null && isLocal(urls.root) ? await localFileType(modelPath) : null;
  return entries.flatMap((m) => {
    const name = text(m?.id);
    if (m === null || name === null) return [];
    const meta = object(m.meta);
    const params = positive(meta?.n_params);
    const reported = ftypeName(meta?.ftype) ?? servedType;
    const record = modelRecord({
      name,
      kind: 'llama-server',
      parameters: params === null ? null : params / 1e9,
      quantization: reported ?? fileType,
      weightBytes: positive(meta?.size),
      contextLength: positive(meta?.n_ctx_train),
      toolSupport: toolSupport(object(props)),
    });
    // The quantization came from the file the server loaded, not from the server's answer.
    if (reported === null && fileType !== null) record.sources.quantization = 'file';
    return [record];
  });
}

/**
 * Our name of the file type llama-server reports (llama.cpp `llama_ftype_name`: "Q4_K - Medium",
 * "Q2_K - Medium", "all F32", "IQ3_S mix - 3.66 bpw", "(guessed) Q8_0"); null when it says none or
 * "unknown". llama.cpp calls plain Q2_K "Q2_K - Medium"; the file_type table (quant.ts) calls it Q2_K.
 */
export function ftypeName(value: unknown): string | null {
  const said = text(value)
    ?.replace(/^\(guessed\)\s*/, '')
    .trim();
  if (said === undefined || said === '' || /^unknown\b/i.test(said)) return null;
  if (said === 'all F32') return 'F32';
  if (said === 'MXFP4 MoE') return 'MXFP4_MOE';
  if (/^IQ3_S mix\b/.test(said)) return 'IQ3_M';
  const sized = /^(Q[345]_K) - (Small|Medium|Large)$/.exec(said);
  if (sized !== null) return `${sized[1]}_${sized[2]?.[0] ?? ''}`;
  if (said === 'Q2_K - Small') return 'Q2_K_S';
  if (said === 'Q2_K - Medium') return 'Q2_K';
  // The rest is a bare type name, possibly followed by " - N bpw" (IQ and TQ types).
  return /^[A-Z0-9_]+/.exec(said)?.[0] ?? null;
}

export async function describeLlamaServer(
  urls: ServerUrls,
  model: string,
  o: RequestOptions,
): Promise<ServerFacts> {
  const [propsBody, list] = await Promise.all([
    tryJson(`${urls.root}/props`, o),
    tryJson(`${urls.openAiBase}/models`, o),
  ]);
  const props = object(propsBody);
  const entries = array(object(list)?.data).map(object);
  const entry = entries.find((m) => m?.id === model) ?? (entries.length === 1 ? entries[0] : null);
  return {
    kind: 'llama-server',
    version: text(props?.build_info),
    contextLength: positive(object(props?.default_generation_settings)?.n_ctx),
    trainedContextLength: positive(object(entry?.meta)?.n_ctx_train),
    parallelSlots: positive(props?.total_slots),
    toolSupport: toolSupport(props),
  };
}

/** The template's own tool-call support; builds without chat_template_caps leave it unknown. */
function toolSupport(props: JsonObject | null): boolean | null {
  const caps = object(props?.chat_template_caps);
  return bool(caps?.supports_tool_calls) ?? bool(caps?.supports_tools);
}

function isLocal(root: string): boolean {
  const host = new URL(root).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

async function localFileType(path: string): Promise<string | null> {
  try {
    return (await readGgufHeader(path)).fileType;
  } catch {
    return null; // Not readable from here (another user, a container): the name is all there is.
  }
}
