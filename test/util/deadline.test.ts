import { describe, expect, it } from 'vitest';
import { DeadlineExceeded, withDeadline } from '../../src/util/deadline.js';

describe('withDeadline', () => {
  it('gives the result of a promise that settles in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 1000, 'x')).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error('no')), 1000, 'x')).rejects.toThrow('no');
  });

  it('rejects with DeadlineExceeded naming the work when the promise never settles', async () => {
    const never = new Promise<number>(() => {});
    const err = await withDeadline(never, 20, 'removing the container').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineExceeded);
    expect((err as Error).message).toBe('removing the container did not finish within 0 s');
  });

  it('a promise that rejects after its deadline is no unhandled rejection', async () => {
    const late = new Promise<number>((_, reject) => setTimeout(() => reject(new Error('late')), 30));
    await expect(withDeadline(late, 5, 'x')).rejects.toBeInstanceOf(DeadlineExceeded);
    await new Promise((r) => setTimeout(r, 50));
  });
});
