// Talking to the dashboard server. State-changing requests carry the session token from the page's meta tag.

const tokenMeta = document.querySelector('meta[name="agent-bench-token"]');
const token = tokenMeta === null ? '' : (tokenMeta.getAttribute('content') ?? '');

/** @param {string} url */
export async function getJson(url) {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

/** @param {string} url @param {unknown} body */
export async function postJson(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-agent-bench-token': token },
    body: JSON.stringify(body),
  });
  const reply = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(reply.error ?? `HTTP ${res.status}`);
  return reply;
}

/** Query-string value, encoded. @param {string} value */
export const q = (value) => encodeURIComponent(value);
