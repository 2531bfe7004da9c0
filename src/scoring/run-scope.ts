/**
 * Whether a runner's run was the project's own verification, from what really ran (the traced
 * process's argv and the files it read), never from the command's wording: a green run counts for
 * "verified its work" only when it checked the workspace as it is, the way the project checks it.
 * - pytest: no selection that can leave failing tests out (`-k`, `-m`, `--deselect`, `--lf`,
 *   `--sw`, a `file::test` node id, `--ignore`); `--collect-only` runs nothing (pytest.ts).
 * - node's test runner: no `--test-name-pattern`, `--test-skip-pattern` or `--test-only`.
 * - tsc: the project's tsconfig.json read, no other tsconfig-like file read (a `-p /tmp/loose.json`
 *   that extends the real one reads both), and no compiler option set on the command line beyond
 *   those that change no verdict (`--noEmit`, `--pretty`, `-p`).
 * Which files the run read (the workspace's, not a copy in /tmp) is each check's own `reads`.
 */
import type { RunnerName } from '../evidence/runner-summary.js';

const PYTEST_SELECTING = new Set([
  '-k',
  '-m',
  '--deselect',
  '--lf',
  '--last-failed',
  '--sw',
  '--stepwise',
  '--ignore',
  '--ignore-glob',
  '--pyargs',
]);
const NODE_SELECTING = /^--test-(name-pattern|skip-pattern|only)(=|$)/;
/** tsc options that change no verdict (the value after -p / --project is the config, checked apart). */
const TSC_HARMLESS = new Set([
  '--noEmit',
  '--pretty',
  '--listFiles',
  '--diagnostics',
  '--extendedDiagnostics',
]);
const PROJECT_CONFIG = '/workspace/tsconfig.json';

/** null when the run checked the whole project as it is, else why not (one line). */
export function narrowed(
  runner: RunnerName,
  args: readonly string[],
  read: ReadonlySet<string>,
): string | null {
  if (runner === 'pytest') return pytestNarrowed(args);
  if (runner === 'node:test') {
    const opt = args.find((a) => NODE_SELECTING.test(a));
    return opt === undefined ? null : `it selected tests (${opt})`;
  }
  if (runner === 'tsc') return tscNarrowed(args, read);
  return null;
}

function pytestNarrowed(args: readonly string[]): string | null {
  for (const a of args) {
    const opt = a.split('=')[0] as string;
    if (PYTEST_SELECTING.has(opt) || /^-[a-zA-Z]*[km]/.test(a)) return `it selected tests (${a})`;
    if (!a.startsWith('-') && a.includes('::')) return `it ran only ${a}`;
  }
  return null;
}

function tscNarrowed(args: readonly string[], read: ReadonlySet<string>): string | null {
  if (!read.has(PROJECT_CONFIG)) return 'it did not read the project’s tsconfig.json';
  const other = [...read].find(
    (p) =>
      p !== PROJECT_CONFIG &&
      /tsconfig[^/]*\.json$|\/[^/]*\.json$/.test(p) &&
      !p.includes('/node_modules/') &&
      !p.endsWith('/package.json'),
  );
  if (other !== undefined) return `it read another configuration (${other})`;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '-p' || a === '--project') {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return `it checked files named on the command line (${a}), not the project`;
    const [opt, value] = a.split('=');
    if (!TSC_HARMLESS.has(opt as string)) return `it set ${a} on the command line`;
    const next = value ?? args[i + 1];
    if (opt === '--noEmit' && (next === 'false' || next === 'true')) {
      if (next === 'false') return `it set ${opt} false`;
      if (value === undefined) i++;
    }
  }
  return null;
}
