/** The worker pool: how many run at once, when the source is pulled, and what a failure stops. */
import { describe, expect, it } from 'vitest';
import { runPool } from '../../src/run/pool.js';
import { InternalError } from '../../src/util/errors.js';

/** A promise resolved from outside. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Lets every pending callback run (the pool's pulls and starts are a few promise hops each). */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('runPool', () => {
  it('runs every item once, never more than `size` at once, and as many as it can', async () => {
    const gates = Array.from({ length: 7 }, deferred);
    const started: number[] = [];
    let active = 0;
    let most = 0;
    const done = runPool(3, [0, 1, 2, 3, 4, 5, 6], async (i) => {
      started.push(i);
      active++;
      most = Math.max(most, active);
      await gates[i]?.promise;
      active--;
    });
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[1]?.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.resolve();
    await done;
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(most).toBe(3);
  });

  it('pulls the source only when a worker is free, so it decides from what has finished', async () => {
    const log: string[] = [];
    const gates = [deferred(), deferred(), deferred()];
    async function* source(): AsyncGenerator<number> {
      for (let i = 0; i < 3; i++) {
        log.push(`pull ${i}`);
        yield i;
      }
    }
    const done = runPool(2, source(), async (i) => {
      await gates[i]?.promise;
      log.push(`end ${i}`);
    });
    await settle();
    // Two workers: two pulls, and the third waits for a worker.
    expect(log).toEqual(['pull 0', 'pull 1']);
    gates[1]?.resolve();
    await settle();
    expect(log).toEqual(['pull 0', 'pull 1', 'end 1', 'pull 2']);
    gates[0]?.resolve();
    gates[2]?.resolve();
    await done;
  });

  it('stops at the first error: onFirstError at once, nothing new starts, work in flight is waited for, then it throws', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const slow = deferred();
    const firstErrors: unknown[] = [];
    let sourceClosed = false;
    async function* source(): AsyncGenerator<number> {
      try {
        for (let i = 0; i < 10; i++) yield i;
      } finally {
        sourceClosed = true;
      }
    }
    const boom = new Error('boom');
    const done = runPool(
      2,
      source(),
      async (i) => {
        started.push(i);
        if (i === 0) await slow.promise;
        if (i === 1) throw boom;
        finished.push(i);
      },
      (err) => {
        firstErrors.push(err);
        // The caller's chance to stop what is in flight; here it lets item 0 finish.
        slow.resolve();
      },
    );
    await expect(done).rejects.toBe(boom);
    expect(firstErrors).toEqual([boom]);
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([0]);
    expect(sourceClosed).toBe(true);
  });

  it('a source that throws stops the pool the same way', async () => {
    const bad = new Error('no next task');
    function* source(): Generator<number> {
      yield 1;
      throw bad;
    }
    const seen: number[] = [];
    const firstErrors: unknown[] = [];
    await expect(
      runPool(
        1,
        source(),
        async (i) => {
          seen.push(i);
        },
        (err) => firstErrors.push(err),
      ),
    ).rejects.toBe(bad);
    expect(seen).toEqual([1]);
    expect(firstErrors).toEqual([bad]);
  });

  it('later errors are dropped: the first one is thrown', async () => {
    const first = new Error('first');
    const gate = deferred();
    const done = runPool(
      2,
      [0, 1],
      async (i) => {
        if (i === 0) throw first;
        await gate.promise;
        throw new Error('aborted because of the first');
      },
      () => gate.resolve(),
    );
    await expect(done).rejects.toBe(first);
  });

  it('refuses a size that is not a whole number >= 1', async () => {
    await expect(runPool(0, [1], async () => {})).rejects.toBeInstanceOf(InternalError);
    await expect(runPool(1.5, [1], async () => {})).rejects.toBeInstanceOf(InternalError);
  });
});
