/**
 * The fetch the model client sends its requests with: node:http(s) with no deadline of its own, so
 * the caller's signal (the request timeout, --request-timeout) is the only bound on a request.
 * Node's global fetch (undici) gives up at its own 300 s headers and body timeouts whatever the
 * caller allows, which cut every slow reply of a large model on CPU at five minutes.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

// One pool per process, as the global fetch has: trials reuse their connections to the server.
const HTTP_AGENT = new HttpAgent({ keepAlive: true });
const HTTPS_AGENT = new HttpsAgent({ keepAlive: true });

/** A fetch for what the openai client sends (a string or byte body); `signal` aborts it at any point. */
export const unboundedFetch: Fetch = async (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : input);
  const headers = new Headers(init.headers);
  // Replies are read as sent (the reply cap counts wire bytes): no compressed encodings.
  headers.set('accept-encoding', 'identity');
  const body = requestBody(init.body);
  if (body !== null) headers.set('content-length', String(body.byteLength));
  const signal = init.signal ?? undefined;
  signal?.throwIfAborted();
  const https = url.protocol === 'https:';
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: init.method ?? 'GET',
      headers: Object.fromEntries(headers),
      agent: https ? HTTPS_AGENT : HTTP_AGENT,
      ...(signal === undefined ? {} : { signal }),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(body ?? undefined);
  });
  // The signal keeps its hold on the body: a timeout while the reply streams in ends the read.
  const onAbort = (): void => {
    res.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  res.once('close', () => signal?.removeEventListener('abort', onAbort));
  const status = res.statusCode ?? 0;
  const bodiless = status === 204 || status === 304 || init.method === 'HEAD';
  if (bodiless) res.resume();
  return new Response(bodiless ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
    status,
    statusText: res.statusMessage ?? '',
    headers: responseHeaders(res),
  });
};

function requestBody(body: RequestInit['body']): Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // The chat client sends JSON strings; anything else is a new use this fetch was not made for.
  throw new TypeError('unboundedFetch sends string and byte bodies only');
}

function responseHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}
