/**
 * Whether a server takes a chat request with `tools`, asked the way a run asks: one tiny request with
 * one tool. llama-server started without --jinja refuses it (HTTP 500 "tools param requires --jinja
 * flag"), and every trial of a run would then end the same way, so doctor asks before the run does.
 */
import { errorMessage } from '../util/errors.js';
import { object, text } from './wire.js';

export type ToolProbe =
  | { kind: 'accepted' }
  | { kind: 'refused'; status: number; message: string | null }
  /** No answer (timeout, connection lost): says nothing about tools. */
  | { kind: 'no-answer'; reason: string };

const PROBE_TOOL = {
  type: 'function',
  function: {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

/** `chatUrl`: the server's `…/v1/chat/completions`. One token is asked for: whether it answers is what counts. */
export async function probeToolRequest(
  chatUrl: string,
  model: string,
  o: { timeoutMs: number; headers?: Record<string, string> },
): Promise<ToolProbe> {
  let res: Response;
  try {
    res = await fetch(chatUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...o.headers },
      body: JSON.stringify({
        model,
        messages: [{ role: 'user', content: 'Say ok.' }],
        tools: [PROBE_TOOL],
        max_tokens: 1,
      }),
      signal: AbortSignal.timeout(o.timeoutMs),
    });
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    return { kind: 'no-answer', reason: timedOut ? `no answer within ${o.timeoutMs} ms` : errorMessage(err) };
  }
  if (res.ok) {
    await res.body?.cancel();
    return { kind: 'accepted' };
  }
  const body = object(await res.json().catch(() => null));
  const message = text(object(body?.error)?.message) ?? text(body?.error) ?? text(body?.message);
  return { kind: 'refused', status: res.status, message };
}
