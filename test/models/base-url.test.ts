import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../src/models/base-url.js';
import { UsageError } from '../../src/util/errors.js';

function refusal(input: string): string {
  try {
    normalizeBaseUrl(input);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  return expect.fail(`${input} was taken`);
}

describe('--base-url as typed', () => {
  it('a bare host:port echoes what was typed and suggests the URL with http:// and /v1', () => {
    expect(refusal('localhost:8080')).toBe(
      'model server URL "localhost:8080" has no http:// or https://: did you mean http://localhost:8080/v1?',
    );
    expect(refusal('127.0.0.1:11434/v1/')).toContain('did you mean http://127.0.0.1:11434/v1?');
    expect(refusal('[::1]:1234')).toContain('did you mean http://[::1]:1234/v1?');
  });

  it('a URL with its scheme is taken, /v1 added to a bare host', () => {
    expect(normalizeBaseUrl('http://localhost:8080')).toBe('http://localhost:8080/v1');
    expect(normalizeBaseUrl('https://example.test/api/v1/')).toBe('https://example.test/api/v1');
  });

  it('other schemes and junk are still refused in one line', () => {
    expect(refusal('ftp://host:21')).toMatch(/^model server URL must be http\(s\)/);
    expect(refusal('not a url')).toMatch(/^invalid model server URL: "not a url"/);
  });
});
