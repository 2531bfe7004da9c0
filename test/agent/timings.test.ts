/** llama-server's own timing of a reply reaches the turn log, so the cost axis can use it. */
import { describe, expect, it } from 'vitest';
import { CallIdAllocator } from '../../src/models/call-ids.js';
import { readCompletion } from '../../src/models/wire.js';
import { turnLogFrom } from '../../src/trial/turn-log.js';

const reply = (extra: object) =>
  JSON.stringify({
    choices: [{ message: { content: 'done' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 120, completion_tokens: 8 },
    ...extra,
  });

describe('server timings', () => {
  it('are read from a llama-server reply and kept in the turn log', () => {
    const timings = {
      prompt_n: 120,
      prompt_ms: 60.5,
      prompt_per_second: 1983,
      predicted_n: 8,
      predicted_ms: 160,
      cache_n: 0,
    };
    const content = readCompletion(reply({ timings }), new CallIdAllocator());
    expect(content.timings).toEqual({
      prompt_tokens: 120,
      prompt_ms: 60.5,
      predicted_tokens: 8,
      predicted_ms: 160,
    });
    const log = turnLogFrom(1, { ...content, latencyMs: 250, retries: [] });
    expect(log.timings).toEqual(content.timings);
  });

  it('are absent when the server sends none, or sends them broken', () => {
    expect(readCompletion(reply({}), new CallIdAllocator()).timings).toBeUndefined();
    const broken = readCompletion(reply({ timings: { prompt_n: 'x' } }), new CallIdAllocator());
    expect(broken.timings).toBeUndefined();
    expect(broken.text).toBe('done');
    expect('timings' in turnLogFrom(1, { ...broken, latencyMs: 1, retries: [] })).toBe(false);
  });
});
