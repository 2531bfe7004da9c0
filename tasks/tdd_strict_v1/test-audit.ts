/**
 * The audit of the agent's test files, run by the harness with Python's own `ast` (audit-script.ts):
 * it rejects stand-ins for the implementation inside a test file, skipped or xfailed tests, tests in
 * code that never runs, and tests that assert nothing that can fail in code that runs. The script
 * runs as `python3 -I -S` so that nothing in /workspace (a planted ast.py or json.py, a .pth file,
 * PYTHON* variables) is imported; it prints one JSON object.
 */
import { z } from 'zod';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import { HIDDEN_DIR } from '../../src/tasks/types.js';
import { AUDIT_SCRIPT_NAME } from './audit-script.js';

export { AUDIT_SCRIPT, AUDIT_SCRIPT_NAME } from './audit-script.js';

/** The harness command auditing every top-level test_*.py for `name` imported from `module`. */
export function auditCommand(name: string, module: string): string {
  return `python3 -I -S ${HIDDEN_DIR}/${AUDIT_SCRIPT_NAME} ${name} ${module} ${WORKSPACE_DIR}`;
}

const AuditOutput = z.object({
  files: z.record(z.string(), z.object({ tests: z.number(), problems: z.array(z.string()) })),
});

export type AuditVerdict = { ok: true; tests: number } | { ok: false; detail: string };

/** The audit's stdout to a verdict: clean files holding at least one test, or what is wrong. */
export function auditVerdict(exitCode: number | null, stdout: string): AuditVerdict {
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
