/**
 * The verdict of a test audit the harness runs with Python's own `ast` (e.g. tdd_strict_v1's
 * hidden audit_tests.py): a script that rejects stand-ins for the implementation inside a test
 * file, skipped or xfailed tests, tests in code that never runs, and tests that assert nothing that
 * can fail in code that runs. It runs as `python3 -I -S` so that nothing in /workspace (a planted
 * ast.py or json.py, a .pth file, PYTHON* variables) is imported, and prints one JSON object:
 * `{"files": {"<name>": {"tests": n, "problems": ["..."]}}}`.
 */
import { z } from 'zod';

const AuditOutput = z.object({
  files: z.record(z.string(), z.object({ tests: z.number(), problems: z.array(z.string()) })),
});

type AuditVerdict = { ok: true; tests: number } | { ok: false; detail: string };

/** The audit's stdout to a verdict: clean files holding at least one test, or what is wrong. */
export function pytestAuditVerdict(exitCode: number | null, stdout: string): AuditVerdict {
  let parsed: z.infer<typeof AuditOutput>;
  try {
    const result = AuditOutput.safeParse(JSON.parse(stdout));
    if (!result.success || exitCode !== 0) return { ok: false, detail: 'the test audit did not run' };
    parsed = result.data;
  } catch {
    return { ok: false, detail: 'the test audit did not run' };
  }
  const entries = Object.entries(parsed.files);
  if (entries.length === 0) return { ok: false, detail: 'no test_*.py file' };
  const problems = entries.flatMap(([file, r]) => r.problems.map((p) => `${file}: ${p}`));
  if (problems.length > 0) return { ok: false, detail: problems.slice(0, 5).join('; ') };
  const tests = entries.reduce((n, [, r]) => n + r.tests, 0);
  return tests === 0 ? { ok: false, detail: 'no test functions' } : { ok: true, tests };
}
