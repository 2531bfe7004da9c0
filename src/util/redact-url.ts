/**
 * URLs as they may be recorded or shown. A model server URL can carry secrets (`user:password@`,
 * `?api_key=…`); this is the one function that hides them, for the runner, the ladder, reports and
 * the dashboard alike (src/models/base-url.ts says how requests still use them).
 */

/** Query parameters known to carry no secret; every other value is shown as `***`. */
const PUBLIC_QUERY = new Set(['api-version']);
const HIDDEN = '***';

/**
 * The URL as it may be recorded or shown: `user:password@` becomes `***@`, each query value but the
 * known public ones becomes `***`, the fragment is dropped. Text that is not a URL has anything that
 * looks like userinfo or a query value hidden all the same.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // Not a URL at all: a user's mistyped option, bounded so the scan below stays cheap.
    return text
      .slice(0, 2048)
      .replace(/\/\/[^/@\s]*@/g, `//${HIDDEN}@`)
      .replace(/([?&][^=&#\s]+)=[^&#\s]*/g, (_, key: string) => `${key}=${HIDDEN}`);
  }
  const userinfo = url.username === '' && url.password === '' ? '' : `${HIDDEN}@`;
  const query = [...url.searchParams]
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${PUBLIC_QUERY.has(k.toLowerCase()) ? encodeURIComponent(v) : HIDDEN}`,
    )
    .join('&');
  const path = url.pathname === '/' && !text.replace(/[?#].*$/, '').endsWith('/') ? '' : url.pathname;
  return `${url.protocol}//${userinfo}${url.host}${path}${query === '' ? '' : `?${query}`}`;
}
