import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

declare module 'vitest' {
  interface TaskMeta {
    /** A line for the end of the run (CI shows only its last lines): what a long test measured. */
    ciNote?: string;
  }
}

/**
 * Ends every test run with what the tests noted (TaskMeta.ciNote), the failed tests with the first
 * line of their error, and the slowest files (what CI's time goes to) — so that the last lines of a
 * CI log, often all that is kept of it, say what failed and where the time went — and then the plain
 * line `N passed, N failed` (CI reads it).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const notes: string[] = [];
    const failures: string[] = [];
    for (const mod of testModules) {
      const file = relative(process.cwd(), mod.moduleId);
      for (const test of mod.children.allTests()) {
        const result = test.result();
        const note = test.meta().ciNote;
        if (note !== undefined) notes.push(`  ${note}`);
        if (result.state === 'passed') passed++;
        else if (result.state === 'failed') {
          failed++;
          const first = result.errors?.[0]?.message.split('\n')[0] ?? '';
          failures.push(`  ${file} > ${test.fullName}\n      ${first.slice(0, 400)}`);
        } else skipped++;
      }
      // A file that failed to load has no tests but is a failure.
      if (mod.state() === 'failed' && [...mod.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    if (notes.length > 0) process.stdout.write(`\nnotes:\n${notes.join('\n')}\n`);
    if (failures.length > 0) process.stdout.write(`\nfailed tests:\n${failures.join('\n')}\n`);
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
