/** What the Python TDD tasks share: which test files the agent wrote, and the test-first flag. */
import { firstChangeTurn, type PytestRun } from '../../src/scoring/check-helpers.js';
import { changedBefore } from '../../src/scoring/ordering.js';
import type { CheckContext, Flag } from '../../src/tasks/types.js';

/** Top-level test_*.py files the agent created, with the turn each first appeared, earliest first. */
export function testFiles(ctx: CheckContext): { path: string; turn: number }[] {
  return [...ctx.firstChangeTurn]
    .filter(([path]) => /^test_[^/]*\.py$/.test(path) && !ctx.setupSnapshot.has(path))
    .map(([path, turn]) => ({ path, turn }))
    .sort((a, b) => a.turn - b.turn);
}

/** `test_first`: a test_*.py file appeared strictly before the implementation file did. */
export function testFirstFlag(impl: string): Flag {
  return {
    id: 'test_first',
    kind: 'process',
    description: `A test_*.py file appeared strictly before ${impl} did.`,
    check(ctx) {
      const implTurn = firstChangeTurn(ctx, impl);
      const tests = testFiles(ctx);
      if (tests.length === 0) return { reached: false, detail: 'no test_*.py file was written' };
      if (implTurn === null) return { reached: false, detail: `${impl} was never written` };
      const first = tests.find((t) => changedBefore(ctx, t, { path: impl, turn: implTurn }));
      return first === undefined
        ? { reached: false, detail: `${impl} appeared before any test file` }
        : { reached: true, turn: first.turn };
    },
  };
}

/**
 * A TDD red: the task's tests failed on the target, not on a broken test file. pytest exit 1 is
 * tests that ran and failed; exit 2 (interrupted) counts only when what the model saw names the
 * missing implementation (`No module named 'slugify'`, `cannot import name 'slugify'`), never a
 * syntax or collection error of the test file itself.
 */
export function isTargetRed(ctx: Pick<CheckContext, 'calls'>, run: PytestRun, module: string): boolean {
  const call = ctx.calls[run.at.call];
  return targetRedText(run.exitCode, call === undefined ? '' : `${call.stdout}\n${call.stderr}`, module);
}

/** isTargetRed on a pytest exit code and the text of its output (as shown, or as logged). */
export function targetRedText(exitCode: number | null, output: string, module: string): boolean {
  if (exitCode === 1) return true;
  if (exitCode !== 2) return false;
  if (/\b(SyntaxError|IndentationError|TabError)\b/.test(output)) return false;
  const name = module.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`No module named '${name}'|cannot import name '[^']+' from '${name}'`).test(output);
}

/**
 * The red run's tests are still there at the end and pass: every test it saw fail is among the
 * PASSED lines of the harness's final run (`-rA`), and every test file it ran still exists.
 */
export function redSurvives(
  ctx: Pick<CheckContext, 'finalSnapshot'>,
  run: PytestRun,
  finalOutput: string,
): string | null {
  for (const path of run.read) {
    const rel = path.replace(/^\/workspace\//, '');
    if (/(^|\/)test_[^/]*\.py$/.test(rel) && ctx.finalSnapshot.get(rel)?.kind !== 'file')
      return `${rel}, which was red, is gone`;
  }
  const passed = new Set(
    [...finalOutput.matchAll(/^PASSED (\S+)/gm)].map((m) => (m[1] as string).replace(/^\/?[^:]*\//, '')),
  );
  const lost = (run.seen?.runner === 'pytest' ? run.seen.failedTests : []).filter(
    (id) => !passed.has(id.replace(/^\/?[^:]*\//, '')),
  );
  return lost.length === 0 ? null : `tests that were red do not pass at the end: ${lost.join(', ')}`;
}
