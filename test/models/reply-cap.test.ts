import { describe, expect, it } from 'vitest';
import { cappedFetch, ReplyTooLargeError } from '../../src/models/reply-cap.js';

/** A body sent in chunks with no content-length (chunked transfer), counting what the source produced. */
function streamed(chunks: number, chunkBytes: number): { fetch: typeof fetch; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(chunkBytes).fill(97));
    },
  });
  return { fetch: async () => new Response(body, { status: 200 }), pulled: () => pulled };
}

describe('cappedFetch', () => {
  it('passes a reply under the cap through unchanged', async () => {
    const source = streamed(3, 1000);
    const response = await cappedFetch(10_000, source.fetch)('http://x/');
    expect((await response.text()).length).toBe(3000);
    expect(response.status).toBe(200);
  });

  it('fails a streamed body as soon as it passes the cap, without reading the rest', async () => {
    const source = streamed(1000, 1024);
    const response = await cappedFetch(8 * 1024, source.fetch)('http://x/');
    const err = await response.text().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReplyTooLargeError);
    expect((err as ReplyTooLargeError).limitBytes).toBe(8 * 1024);
    // The source is cancelled near the cap, not drained to its end.
    expect(source.pulled()).toBeLessThan(20);
  });

  it('fails at once when the declared length is over the cap', async () => {
    let cancelled = false;
    const body = new ReadableStream({
      cancel: () => {
        cancelled = true;
      },
    });
    const big = async () => new Response(body, { headers: { 'content-length': '99999999' } });
    const response = await cappedFetch(1024, big)('http://x/');
    await expect(response.text()).rejects.toBeInstanceOf(ReplyTooLargeError);
    expect(cancelled).toBe(true);
  });
});
