/** scripts/task-kind.mjs, the lint's task-kind rule, run as `npm run lint` runs it, in a temporary project. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'task-kind.mjs');
let project: string;

function checkIn(files: Record<string, string>): { status: number | null; out: string } {
  project = mkdtempSync(join(tmpdir(), 'ab-kind-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  const run = spawnSync(process.execPath, [SCRIPT], { cwd: project, encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('task-kind', () => {
  it("fails a runner that asks a task's kind, naming the line", () => {
    const run = checkIn({
      'src/run/runner.ts': "export const f = (t: { kind: string }) =>\n  t.kind === 'harbor' ? 1 : 0;\n",
      'src/report/view.ts': "switch (k) {\n  case 'dialogue':\n}\n",
    });
    expect(run.status).toBe(1);
    expect(run.out).toContain("src/run/runner.ts:2: asks a task's kind");
    expect(run.out).toContain('src/report/view.ts:2:');
  });

  it('passes the loaders, the exporter, and other kinds of kind', () => {
    const run = checkIn({
      'src/catalogue/native/load.ts': "const k = task.kind === 'sandbox';\n",
      'src/cli/commands/task-export.ts': "switch (task.kind) {\n  case 'skill':\n}\n",
      'src/sandbox/snapshot.ts': "if (entry.kind === 'file') {}\n",
    });
    expect(run.status, run.out).toBe(0);
  });
});
