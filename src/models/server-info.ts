/**
 * Best-effort facts about a model server for each result's environment. The context length
 * matters most: Ollama's OpenAI endpoint silently truncates prompts to its own default.
 */
import { z } from 'zod';
import { normalizeBaseUrl, serverRoot } from './base-url.js';
import type { ServerInfo } from './types.js';

const LlamaProps = z.object({
  build_info: z.string().nullish().catch(null),
  default_generation_settings: z
    .object({ n_ctx: z.number().nullish().catch(null) })
    .nullish()
    .catch(null),
});
const OllamaVersion = z.object({ version: z.string() });
const OllamaPs = z.object({
  models: z.array(
    z.object({
      name: z.string().catch(''),
      model: z.string().catch(''),
      context_length: z.number().nullish(),
    }),
  ),
});
const LmStudioModels = z.object({
  data: z.array(z.object({ id: z.string(), loaded_context_length: z.number().nullish().catch(null) })),
});

export interface DescribeOptions {
  /** The model in use, to pick its context length from per-model listings. */
  model?: string;
  timeoutMs?: number;
}

/** Never throws: unknown facts are null, and an unrecognised server is plain 'openai-compatible'. */
export async function describeServer(baseUrl: string, options: DescribeOptions = {}): Promise<ServerInfo> {
  let url: string;
  try {
    url = normalizeBaseUrl(baseUrl);
  } catch {
    return { kind: 'openai-compatible', baseUrl, version: null, contextLength: null };
  }
  const root = serverRoot(url);
  const get = (path: string): Promise<unknown> => getJson(`${root}${path}`, options.timeoutMs ?? 1500);
  const [props, ollama, lmstudio] = await Promise.all([
    get('/props'),
    get('/api/version'),
    get('/api/v0/models'),
  ]);

  const llama = LlamaProps.safeParse(props);
  if (llama.success && (llama.data.build_info || llama.data.default_generation_settings)) {
    const nCtx = llama.data.default_generation_settings?.n_ctx ?? null;
    return {
      kind: 'llama-server',
      baseUrl: url,
      version: llama.data.build_info ?? null,
      contextLength: nCtx,
    };
  }
  const version = OllamaVersion.safeParse(ollama);
  if (version.success) {
    const ps = OllamaPs.safeParse(await get('/api/ps'));
    const loaded = ps.success
      ? ps.data.models.find((m) => m.name === options.model || m.model === options.model)
      : undefined;
    return {
      kind: 'ollama',
      baseUrl: url,
      version: version.data.version,
      contextLength: loaded?.context_length ?? null,
    };
  }
  const lm = LmStudioModels.safeParse(lmstudio);
  if (lm.success) {
    const entry = lm.data.data.find((m) => m.id === options.model);
    return {
      kind: 'lmstudio',
      baseUrl: url,
      version: null,
      contextLength: entry?.loaded_context_length ?? null,
    };
  }
  return { kind: 'openai-compatible', baseUrl: url, version: null, contextLength: null };
}

/** GET a JSON document; null on any failure (unreachable, non-2xx, not JSON, too slow). */
export async function getJson(
  url: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
): Promise<unknown> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return null;
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}
