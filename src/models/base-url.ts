/**
 * A model server URL as the user gives it (`--base-url`), and the one place that knows which of it is
 * secret. A URL may carry credentials: `user:password@` and query parameters such as `?api_key=…`.
 * Requests carry them (userinfo as a Basic Authorization header, since fetch refuses URLs with
 * credentials; the query on every request); everywhere a URL is recorded or shown (results files,
 * events, messages, ladder summaries, the dashboard) it goes through `redactUrl` (src/util) first.
 */
import { UsageError } from '../util/errors.js';
import { redactUrl } from '../util/redact-url.js';

/**
 * Canonical form of an OpenAI-compatible base URL: no trailing slash, and `/v1` added when the
 * user gave just a host (every supported server serves the API under /v1). Credentials and query are
 * not part of it (see `serverAuth`), so it is safe to show.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  const url = parse(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/v1' : path}`;
}

/** The server root (for non-OpenAI endpoints such as llama-server's /props): the base URL minus /v1. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/v1$/, '');
}

export interface ServerAuth {
  /** `Authorization: Basic …` when the URL has `user:password@`; empty otherwise. */
  headers: Record<string, string>;
  /** The URL's query parameters, to send with every request. */
  query: Record<string, string>;
}

/** What every request to this server must carry from the URL the user gave. */
export function serverAuth(baseUrl: string): ServerAuth {
  const url = parse(baseUrl);
  const headers: Record<string, string> =
    url.username === '' && url.password === ''
      ? {}
      : {
          authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`,
        };
  return { headers, query: Object.fromEntries(url.searchParams) };
}

/** `base` (a normalized base URL) + `path`, with the user's query: the URL a request goes to. */
export function requestUrl(base: string, path: string, auth: ServerAuth): string {
  const query = new URLSearchParams(auth.query).toString();
  return `${base}${path}${query === '' ? '' : `?${query}`}`;
}

function parse(baseUrl: string): URL {
  const bare = withoutScheme(baseUrl);
  if (bare !== null) {
    throw new UsageError(
      // Echoed as typed: the pattern admits no credentials and no query, so nothing secret is in it.
      `model server URL ${JSON.stringify(baseUrl)} has no http:// or https://: did you mean ${bare}?`,
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(
      `invalid model server URL: ${JSON.stringify(redactUrl(baseUrl))} (expected e.g. http://127.0.0.1:8080/v1)`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`model server URL must be http(s): ${JSON.stringify(redactUrl(baseUrl))}`);
  }
  return url;
}

/**
 * `localhost:8080` or `127.0.0.1:8080/v1` (a host and port typed without a scheme; `new URL` reads the
 * first as scheme `localhost:`) as the URL it most likely means, or null when the input has a scheme.
 */
function withoutScheme(input: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) return null;
  const m = /^([\w.-]+|\[[0-9a-f:]+\]):(\d{1,5})(\/[^?#@]*)?$/i.exec(input);
  if (m === null) return null;
  const path = (m[3] ?? '').replace(/\/+$/, '');
  return `http://${m[1]}:${m[2]}${path === '' ? '/v1' : path}`;
}
