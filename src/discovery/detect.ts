/** Which kind of server answers at a URL, from the endpoints only that kind serves. */
import { InfraError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';
import { type RequestOptions, serverUrls, tryJson } from './http.js';
import type { ServerKind } from './types.js';
import { array, object, text } from './wire.js';

export async function detectServerKind(baseUrl: string, o: RequestOptions): Promise<ServerKind> {
  const { root, openAiBase } = serverUrls(baseUrl);
  const [props, version, lmsV1, lmsV0] = await Promise.all([
    tryJson(`${root}/props`, o),
    tryJson(`${root}/api/version`, o),
    tryJson(`${root}/api/v1/models`, o),
    tryJson(`${root}/api/v0/models`, o),
  ]);
  // llama-server first: it also serves a few Ollama-style routes for client compatibility.
  const p = object(props);
  if (p !== null && ('build_info' in p || 'default_generation_settings' in p)) return 'llama-server';
  if (text(object(version)?.version) !== null) return 'ollama';
  if (array(object(lmsV1)?.models).some((m) => text(object(m)?.key) !== null)) return 'lmstudio';
  const v0 = array(object(lmsV0)?.data).map(object);
  if (v0.some((m) => m !== null && ('compatibility_type' in m || 'arch' in m))) return 'lmstudio';
  if (object(await tryJson(`${openAiBase}/models`, o)) !== null) return 'openai-compatible';
  throw new InfraError(
    `no model server answers at ${redactUrl(baseUrl)} (tried ${root}/props, /api/version, ${openAiBase}/models)`,
  );
}
