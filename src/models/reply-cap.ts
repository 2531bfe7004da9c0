/**
 * What is read from a model server per reply is capped on the wire, before any JSON parsing: a model
 * that does not stop (or a broken server) could otherwise send hundreds of megabytes, which the
 * harness would hold, parse, replay and write into the results.
 */

/** Far above any reply a task needs (a whole source file in a write_file is tens of kilobytes). */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

export class ReplyTooLargeError extends Error {
  readonly limitBytes: number;
  constructor(limitBytes: number) {
    super(`the reply was larger than ${limitBytes} bytes and was cut off unread`);
    this.name = 'ReplyTooLargeError';
    this.limitBytes = limitBytes;
  }
}

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch (for the openai client's `fetch` option) whose response bodies fail with ReplyTooLargeError
 * as soon as more than `limitBytes` arrive; the connection is dropped then, not drained. Errors
 * surface where the body is read, so the client's own handling of status codes is unchanged.
 */
export function cappedFetch(limitBytes: number, base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null) return response;
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    let body: ReadableStream<Uint8Array>;
    if (declared > limitBytes) {
      await response.body.cancel();
      body = new ReadableStream({ start: (c) => c.error(new ReplyTooLargeError(limitBytes)) });
    } else {
      let seen = 0;
      body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            seen += chunk.byteLength;
            if (seen > limitBytes) controller.error(new ReplyTooLargeError(limitBytes));
            else controller.enqueue(chunk);
          },
        }),
      );
    }
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
