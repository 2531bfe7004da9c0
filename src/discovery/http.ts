/**
 * JSON over HTTP for discovery: global fetch with a timeout, and every failure turned into one line
 * (an InfraError), or into null where a missing endpoint is an answer in itself.
 */
import { normalizeBaseUrl, serverRoot } from '../models/base-url.js';
import { errorMessage, InfraError } from '../util/errors.js';

export const DEFAULT_TIMEOUT_MS = 3000;

export interface RequestOptions {
  timeoutMs: number;
  /** A JSON body makes the request a POST. */
  body?: unknown;
}

export async function fetchJson(url: string, o: RequestOptions): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: o.body === undefined ? 'GET' : 'POST',
      signal: AbortSignal.timeout(o.timeoutMs),
      ...(o.body === undefined
        ? {}
        : { body: JSON.stringify(o.body), headers: { 'content-type': 'application/json' } }),
    });
  } catch (err) {
    throw new InfraError(`${url}: ${networkReason(err, o.timeoutMs)}`, { cause: err });
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new InfraError(`${url}: HTTP ${res.status}`);
  }
  try {
    return (await res.json()) as unknown;
  } catch (err) {
    throw new InfraError(`${url}: the answer is not JSON`, { cause: err });
  }
}

/** The JSON answer, or null when the endpoint is missing, down or not JSON. */
export async function tryJson(url: string, o: RequestOptions): Promise<unknown> {
  try {
    return await fetchJson(url, o);
  } catch (err) {
    if (err instanceof InfraError) return null;
    throw err;
  }
}

export interface ServerUrls {
  /** Where the OpenAI-compatible API lives (`…/v1`). */
  openAiBase: string;
  /** The server root, for native endpoints (`/api/tags`, `/props`). */
  root: string;
}

/** The OpenAI-compatible base and the server root of a user-given URL (`http://host:port` gets `/v1`). */
export function serverUrls(baseUrl: string): ServerUrls {
  const openAiBase = normalizeBaseUrl(baseUrl);
  return { openAiBase, root: serverRoot(openAiBase) };
}

function networkReason(err: unknown, timeoutMs: number): string {
  if (err instanceof DOMException && err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  // undici reports the socket error (ECONNREFUSED, ENOTFOUND…) as the cause of a TypeError.
  const cause = err instanceof Error ? err.cause : undefined;
  if (cause instanceof Error && 'code' in cause && typeof cause.code === 'string')
    return `cannot connect (${cause.code})`;
  return errorMessage(err);
}
