/** What the Python TDD tasks share: which test files the agent wrote, and the test-first flag. */
import { firstChangeTurn } from '../../src/scoring/check-helpers.js';
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
