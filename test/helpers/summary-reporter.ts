import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends every test run with the slowest files (what CI's time goes to) and then the plain line
 * `N passed, N failed` (CI reads it).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but is a failure.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(slowest(testModules));
    process.stdout.write(
      `\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}

/** The files that took longest, one per line (seconds, project, path), when there are enough to matter. */
function slowest(testModules: ReadonlyArray<TestModule>, count = 12): string {
  const timed = testModules
    .map((mod) => ({ mod, ms: mod.diagnostic().duration }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  if (testModules.length < count) return '';
  const lines = timed.map(
    ({ mod, ms }) =>
      `  ${(ms / 1000).toFixed(0).padStart(5)} s  ${mod.project.name}:${relative(process.cwd(), mod.moduleId)}`,
  );
  return `\nslowest test files:\n${lines.join('\n')}\n`;
}
