/**
 * Vitest global setup: tests that spawn the executable (bin/agent-bench runs dist/) must test the
 * current code, so build it once before any test file runs.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function setup(): void {
  const root = join(import.meta.dirname, '../..');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
