/**
 * A worker pool: `work` runs on the items of `source`, at most `size` at once. The source is pulled
 * only when a worker is free, one pull at a time, so it can decide what starts next from what has
 * finished (early stop, a task that ended). The first error, of the source or of a work, stops new
 * pulls: `onFirstError` is called at once (the caller's chance to abort the work in flight), the work
 * in flight is waited for, then that error is thrown. Later errors are dropped: they are usually the
 * first one's consequence.
 */
import { InternalError } from '../util/errors.js';

export async function runPool<T>(
  size: number,
  source: AsyncIterable<T> | Iterable<T>,
  work: (item: T) => Promise<void>,
  onFirstError: (err: unknown) => void = () => {},
): Promise<void> {
  if (!Number.isInteger(size) || size < 1)
    throw new InternalError(`a pool needs a whole number of workers >= 1, not ${size}`);
  const items = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let failure: { error: unknown } | null = null;
  const fail = (error: unknown): void => {
    if (failure !== null) return;
    failure = { error };
    onFirstError(error);
  };
  // An async generator queues concurrent next() calls itself; a hand-written iterator may not.
  let lastPull: Promise<unknown> = Promise.resolve();
  const pull = (): Promise<IteratorResult<T>> => {
    const next = lastPull.then(() => items.next());
    lastPull = next.catch(() => {});
    return next;
  };

  const worker = async (): Promise<void> => {
    while (failure === null) {
      let next: IteratorResult<T>;
      try {
        next = await pull();
      } catch (err) {
        fail(err);
        return;
      }
      // An item pulled after a failure never starts.
      if (next.done === true || failure !== null) return;
      try {
        await work(next.value);
      } catch (err) {
        fail(err);
      }
    }
  };
  await Promise.all(Array.from({ length: size }, worker));
  const failed = failure as { error: unknown } | null;
  if (failed !== null) {
    // Lets a generator run its `finally`; the source is finished with either way.
    await Promise.resolve(items.return?.()).catch(() => {});
    throw failed.error;
  }
}
