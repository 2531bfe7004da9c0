/**
 * A deadline on a promise the caller cannot cancel (an engine call, a phase of a trial): past it the
 * caller goes on with an error and the promise is left to settle on its own, its result ignored.
 * Whoever gave up on it must treat what it was working on as lost (a container is abandoned).
 */

/** The deadline passed before the promise settled. */
export class DeadlineExceeded extends Error {
  readonly what: string;
  readonly ms: number;
  constructor(what: string, ms: number) {
    super(`${what} did not finish within ${Math.round(ms / 1000)} s`);
    this.name = 'DeadlineExceeded';
    this.what = what;
    this.ms = ms;
  }
}

export function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineExceeded(what, ms)), ms);
  });
  // The abandoned promise may still reject later: that must not become an unhandled rejection.
  work.catch(() => {});
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
