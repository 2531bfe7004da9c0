/**
 * Whether a URL, as an artifact writes it, fetches from outside the artifact's own folder. It is read
 * as a browser reads it (the WHATWG URL standard): surrounding spaces and control characters trimmed,
 * tabs and newlines inside dropped, a backslash taken for a slash. Then it is external when it names
 * a host: scheme-relative (`//cdn.example/x`, `/\cdn.example/x`), any scheme followed by `//`
 * (`https://`, `ftp://`, `file:///`), or a scheme that always reaches out even without slashes
 * (`https:cdn.example`). Relative paths (`img/a.png`, `../a.css`, `/a.css`, `#top`), `data:` and
 * `blob:` URLs of inline content, and `mailto:`, `tel:`, `javascript:` fetch nothing elsewhere.
 */

const NETWORK_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'ws', 'wss', 'file']);

export function isExternalUrl(url: string): boolean {
  const u = url
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what the URL standard trims is these
    .replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
    .replace(/[\t\n\r]/g, '')
    .replace(/\\/g, '/');
  if (/^\/\/./.test(u)) return true;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):(\/\/)?/.exec(u);
  if (scheme === null) return false;
  return scheme[2] !== undefined || NETWORK_SCHEMES.has((scheme[1] ?? '').toLowerCase());
}
