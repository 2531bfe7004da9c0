import { UsageError } from '../util/errors.js';

/**
 * Canonical form of an OpenAI-compatible base URL: no trailing slash, and `/v1` added when the
 * user gave just a host (every supported server serves the API under /v1).
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(
      `invalid model server URL: ${JSON.stringify(baseUrl)} (expected e.g. http://127.0.0.1:8080/v1)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`model server URL must be http(s): ${JSON.stringify(baseUrl)}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/v1' : path}`;
}

/** The server root (for non-OpenAI endpoints such as llama-server's /props): the base URL minus /v1. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/v1$/, '');
}
