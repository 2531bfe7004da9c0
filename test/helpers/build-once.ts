/**
 * Vitest global setup: tests that spawn the executable (bin/agent-bench runs dist/) must test the
 * current code, so build it once before any test file runs. Several projects list this setup; they
 * all run in vitest's main process, which builds once for them all.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const BUILT = Symbol.for('agent-bench.build-once');

export default function setup(): void {
  const flags = globalThis as { [BUILT]?: true };
  if (flags[BUILT]) return;
  const root = join(import.meta.dirname, '../..');
  // Two checkouts sharing one node_modules (git worktrees) must not share its build cache: each would
  // take the other's for its own and skip emitting into its dist/.
  const cache = process.env.AGENT_BENCH_TSBUILDINFO;
  execFileSync(
    process.execPath,
    [
      join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      ...(cache ? ['--tsBuildInfoFile', cache] : []),
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  flags[BUILT] = true;
}
