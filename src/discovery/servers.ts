/** Model discovery and server self-description for every supported server kind. */
import { detectServerKind } from './detect.js';
import { DEFAULT_TIMEOUT_MS, type RequestOptions, type ServerUrls, serverUrls } from './http.js';
import { describeLlamaServer, listLlamaServerModels } from './llama-server.js';
import { describeLmStudio, listLmStudioModels } from './lmstudio.js';
import { describeOllama, listOllamaModels } from './ollama.js';
import { describeGeneric, listGenericModels } from './openai-generic.js';
import type { DiscoveredModel, ServerDetails, ServerFacts, ServerKind } from './types.js';

/** A base URL (the kind is detected), or a server whose kind is already known. */
export type ServerTarget = string | { kind: ServerKind; baseUrl: string };

export interface DiscoveryOptions {
  timeoutMs?: number;
}

/** The chat models a server offers. Throws InfraError (one line) when the server cannot be listed. */
export async function listModels(
  target: ServerTarget,
  options: DiscoveryOptions = {},
): Promise<DiscoveredModel[]> {
  const o = requestOptions(options);
  const { kind, urls } = await resolve(target, o);
  switch (kind) {
    case 'ollama':
      return listOllamaModels(urls.root, o);
    case 'lmstudio':
      return listLmStudioModels(urls.root, o);
    case 'llama-server':
      return listLlamaServerModels(urls, o);
    case 'openai-compatible':
      return listGenericModels(urls.openAiBase, o);
  }
}

/**
 * What the server says about itself and `model`, for the run's environment and the pre-run warnings.
 * A value the server does not report is null; only an unreachable server throws (InfraError).
 */
export async function describeServerDetails(
  target: ServerTarget,
  model: string,
  options: DiscoveryOptions = {},
): Promise<ServerDetails> {
  const o = requestOptions(options);
  const { kind, urls } = await resolve(target, o);
  return { ...(await describe(kind, urls, model, o)), baseUrl: urls.openAiBase };
}

function describe(
  kind: ServerKind,
  urls: ServerUrls,
  model: string,
  o: RequestOptions,
): Promise<ServerFacts> {
  switch (kind) {
    case 'ollama':
      return describeOllama(urls.root, model, o);
    case 'lmstudio':
      return describeLmStudio(urls.root, model, o);
    case 'llama-server':
      return describeLlamaServer(urls, model, o);
    case 'openai-compatible':
      return describeGeneric(urls.openAiBase, model, o);
  }
}

async function resolve(
  target: ServerTarget,
  o: RequestOptions,
): Promise<{ kind: ServerKind; urls: ServerUrls }> {
  const baseUrl = typeof target === 'string' ? target : target.baseUrl;
  const kind = typeof target === 'string' ? await detectServerKind(baseUrl, o) : target.kind;
  return { kind, urls: serverUrls(baseUrl) };
}

function requestOptions(o: DiscoveryOptions): RequestOptions {
  return { timeoutMs: o.timeoutMs ?? DEFAULT_TIMEOUT_MS };
}
