/**
 * Regular expressions the harness did not write (a skill manifest's patterns and JSON-schema
 * `pattern`s), matched with a hard time bound. Such a pattern may backtrack for hours on text the
 * model wrote (`^(a+)+$` on forty `a`s and a `b`), and a match runs on the main thread: unbounded,
 * it freezes the run, Ctrl-C included. V8 interrupts a running match only by terminating the script
 * around it, which `vm`'s `timeout` does from a watchdog thread, so matches run inside one shared,
 * empty context (a RegExp of this realm too: termination stops whatever runs). Starting the
 * watchdog costs tens of microseconds, so code that matches many texts does so in one
 * `withRegexTimeBound` call. The harness's own regexes are written to run in linear time instead.
 */
import { createContext, Script } from 'node:vm';
import { UsageError } from './errors.js';

/** Far above what a sound pattern needs on any text a check reads; short enough that Ctrl-C stays prompt. */
export const REGEX_TIME_BOUND_MS = 500;

/**
 * A check could not be decided: its regex ran out of time. Neither pass nor fail, and not the
 * model's doing: the pattern can backtrack without end (a broken manifest, hence a UsageError).
 */
export class RegexTimeoutError extends UsageError {
  /** The pattern as its author wrote it; null when the time ran out between matches. */
  readonly pattern: string | null;
  constructor(pattern: string | null, ms: number) {
    super(
      pattern === null
        ? `check timed out after ${ms} ms while matching regular expressions`
        : `check regex timed out after ${ms} ms: ${pattern}`,
    );
    this.pattern = pattern;
  }
}

/** A compiled pattern whose every match is time-bounded. `label`: the pattern as its author wrote it. */
export class BoundedRegExp {
  readonly #re: RegExp;
  readonly label: string;
  constructor(re: RegExp, label: string = re.source) {
    this.#re = re;
    this.label = label;
  }

  get source(): string {
    return this.#re.source;
  }

  get flags(): string {
    return this.#re.flags;
  }

  /** Whether the pattern matches somewhere in `text`; throws RegexTimeoutError when out of time. */
  test(text: string): boolean {
    return withRegexTimeBound(() => {
      running = this;
      this.#re.lastIndex = 0;
      const hit = this.#re.test(text);
      running = null;
      return hit;
    });
  }
}

/** The pattern being matched when the time ran out; set around each match, since a terminated match runs no `finally`. */
let running: BoundedRegExp | null = null;
let depth = 0;
let globals: { task: (() => unknown) | undefined } | null = null;
let context: object | null = null;
const CALL = new Script('task()', { filename: 'bounded-regex' });

/**
 * Runs `fn`, which must be synchronous, with every match of a BoundedRegExp inside it bounded by
 * one shared `ms`; a call inside another runs under the outer one's bound.
 */
export function withRegexTimeBound<T>(fn: () => T, ms: number = REGEX_TIME_BOUND_MS): T {
  if (depth > 0) return fn();
  if (globals === null || context === null) {
    globals = { task: undefined };
    context = createContext(globals);
  }
  depth++;
  globals.task = fn;
  try {
    return CALL.runInContext(context, { timeout: ms }) as T;
  } catch (err) {
    if ((err as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new RegexTimeoutError(running?.label ?? null, ms);
    throw err;
  } finally {
    depth--;
    globals.task = undefined;
    running = null;
  }
}
