import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/discovery/models-table.js';

describe('formatBytes', () => {
  it('reads in GiB, in MiB under 0.1 GiB, in KiB under 1 MiB — never 0.0', () => {
    expect(formatBytes(27.1 * 2 ** 30)).toBe('27.1 GiB');
    expect(formatBytes(0.1 * 2 ** 30)).toBe('0.1 GiB');
    expect(formatBytes(60 * 2 ** 20)).toBe('60 MiB');
    expect(formatBytes(3.45 * 2 ** 20)).toBe('3.5 MiB');
    expect(formatBytes(400_000)).toBe('391 KiB');
    expect(formatBytes(10)).toBe('1 KiB');
  });
});
