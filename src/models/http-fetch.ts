/**
 * The fetch the model client sends its requests with: undici's, on a connection pool whose headers
 * and body timeouts are off, so the caller's signal (the request timeout, --request-timeout) is the
 * only bound on a request. Node's global fetch is undici with its default 300 s headers and body
 * timeouts, which cut every slow reply of a large model on CPU at five minutes whatever the caller
 * allowed; its dispatcher cannot be changed without the package, so the package is used whole.
 */
import { Agent, fetch as undiciFetch } from 'undici';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

// One pool per process, as the global fetch has: trials reuse their connections to the server.
const UNBOUNDED = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** A fetch for what the openai client sends; `signal` aborts it at any point, body included. */
export const unboundedFetch: Fetch = async (input, init = {}) => {
  const url = input instanceof Request ? input.url : input;
  // undici's own Response and RequestInit are the web standard's, typed apart from the DOM's.
  const response = await undiciFetch(url, { ...(init as object), dispatcher: UNBOUNDED });
  return response as unknown as Response;
};
