/**
 * How the harness runs node:test suites and the TypeScript compiler for ground truth (as root, cwd
 * /workspace, after every agent process is dead), and how it reads node's TAP summary.
 */
import type { HarnessRun } from './check-helpers.js';

/**
 * Runs the named test files, and only those. Nothing in the workspace steers it: node reads no
 * config from the working directory, the harness tests import `node:` built-ins (which no
 * node_modules can shadow) and the module under test by absolute path. The TAP reporter is named
 * because node 18 and 20 differ in their defaults. With `expected`, the run passes only when node's
 * own summary counts exactly that many tests, all passed: a `process.exit(0)` in the code under
 * test ends a file's process early, and node 18 then reports the file as one passing test.
 */
export function harnessNodeTest(files: string, expected?: number): HarnessRun {
  return {
    command: `node --test --test-reporter=tap ${files}`,
    runner: 'node:test',
    ...(expected === undefined ? {} : { expected }),
  };
}

/**
 * The tests a node:test source declares: `test(` and `it(` calls at the start of a line (top-level
 * tests; nested ones are indented and not counted). For fixtures written that way.
 */
export function countNodeTests(...sources: readonly string[]): number {
  return sources.reduce((n, source) => n + (source.match(/^(?:test|it)\(/gm)?.length ?? 0), 0);
}

/** Counts from the summary node prints at the end of a TAP run. */
export interface TapSummary {
  tests: number;
  pass: number;
  fail: number;
  cancelled: number;
  skipped: number;
  todo: number;
}

/** The summary's counts; null when a line is missing (the run did not finish). */
export function tapSummary(stdout: string): TapSummary | null {
  const count = (key: string): number | null => {
    const all = [...stdout.matchAll(new RegExp(`^# ${key} (\\d+)$`, 'gm'))];
    const last = all.at(-1)?.[1];
    return last === undefined ? null : Number(last);
  };
  const tests = count('tests');
  const pass = count('pass');
  const fail = count('fail');
  const cancelled = count('cancelled');
  const skipped = count('skipped');
  const todo = count('todo');
  if (
    tests === null ||
    pass === null ||
    fail === null ||
    cancelled === null ||
    skipped === null ||
    todo === null
  )
    return null;
  return { tests, pass, fail, cancelled, skipped, todo };
}
