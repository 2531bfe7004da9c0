import { describe, expect, it } from 'vitest';
import { DEFAULT_REPLY_TOKENS, MIN_REPLY_TOKENS, replyTokenBound } from '../../src/models/reply-bound.js';

describe('the reply bound (max_tokens)', () => {
  it('is the default when the server did not say its context', () => {
    expect(replyTokenBound({ chosen: undefined, contextLength: null, promptChars: 90_000 })).toBe(
      DEFAULT_REPLY_TOKENS,
    );
  });

  it('is what the context leaves after the prompt (3 characters a token), capped by the default', () => {
    expect(replyTokenBound({ chosen: undefined, contextLength: 4096, promptChars: 3000 })).toBe(3096);
    expect(replyTokenBound({ chosen: undefined, contextLength: 4096, promptChars: 3001 })).toBe(3095);
    expect(replyTokenBound({ chosen: undefined, contextLength: 131_072, promptChars: 3000 })).toBe(
      DEFAULT_REPLY_TOKENS,
    );
  });

  it('never goes below the floor, even when the prompt seems to fill the context', () => {
    expect(replyTokenBound({ chosen: undefined, contextLength: 2048, promptChars: 6000 })).toBe(
      MIN_REPLY_TOKENS,
    );
    expect(replyTokenBound({ chosen: undefined, contextLength: 2048, promptChars: 60_000 })).toBe(
      MIN_REPLY_TOKENS,
    );
  });

  it('is --max-tokens when given, whatever the context', () => {
    expect(replyTokenBound({ chosen: 50, contextLength: 2048, promptChars: 60_000 })).toBe(50);
    expect(replyTokenBound({ chosen: 20_000, contextLength: null, promptChars: 10 })).toBe(20_000);
  });
});
