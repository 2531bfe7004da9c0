/**
 * One tool call as the steps it ran, in order: what each read, whether it ran pytest (and how far the
 * call's exit code is pytest's), and what it may have written. A refused call ran nothing; a failed
 * read_file read nothing; a failed write_file wrote nothing.
 */
import type { ToolCallLog } from '../results/trial.js';
import { resolvePath } from './paths.js';
import { pytestArguments } from './pytest.js';
import type { ReadTarget } from './read-target.js';
import { readsOf } from './reads.js';
import { type Finality, parseCommandLine } from './shell-commands.js';
import { type WriteSet, writesOf } from './writes.js';

export type CallLike = Pick<ToolCallLog, 'name' | 'arguments' | 'invalid' | 'cwd' | 'exit_code'>;

export interface CallStep {
  reads: readonly ReadTarget[];
  /** Set when the step runs a pytest suite. */
  pytest: Finality | null;
  writes: WriteSet;
}

export function callSteps(call: CallLike): CallStep[] {
  if (call.invalid !== null || call.arguments === null) return [];
  const args = call.arguments;
  const str = (key: string): string | null => {
    const v = args[key];
    return typeof v === 'string' && v !== '' ? v : null;
  };
  switch (call.name) {
    case 'read_file': {
      const path = str('path');
      if (path === null || call.exit_code !== 0) return [];
      return [
        {
          reads: [{ kind: 'file', path: resolvePath(call.cwd, path), range: readRange(args) }],
          pytest: null,
          writes: [],
        },
      ];
    }
    case 'write_file': {
      const path = str('path');
      if (path === null) return [];
      // A write killed midway (no exit code) may have happened.
      const wrote = call.exit_code === 0 || call.exit_code === null;
      return [{ reads: [], pytest: null, writes: wrote ? [resolvePath(call.cwd, path)] : [] }];
    }
    case 'execute_command': {
      const command = str('command');
      if (command === null) return [];
      return parseCommandLine(command, call.cwd).map((c) => ({
        reads: readsOf(c),
        pytest: pytestArguments(c.argv) === null ? null : c.finality,
        writes: writesOf(c),
      }));
    }
    default:
      return [];
  }
}

/** read_file's part: null for a read from the start, else `offset:limit`. */
function readRange(args: Record<string, unknown>): string | null {
  const offset = typeof args.offset === 'number' ? args.offset : 0;
  const limit = typeof args.limit === 'number' ? args.limit : null;
  return offset === 0 && limit === null ? null : `${offset}:${limit ?? ''}`;
}

/** Everything the call read: absolute files, globs, and recursive searches. */
export function filesReadBy(call: CallLike): ReadTarget[] {
  return callSteps(call).flatMap((s) => s.reads);
}

/** Whether some simple command of the call runs a pytest suite. */
export function isPytestRun(call: CallLike): boolean {
  return callSteps(call).some((s) => s.pytest !== null);
}

/**
 * The exit code pytest itself returned, read off the call's reported exit code, or null when that
 * code may belong to something else (`pytest || true`, `pytest | tee`, `pytest; echo`), or when the
 * call timed out or has no code. A masked run is neither red nor green evidence.
 */
export function pytestExitCode(
  exitCode: number | null,
  timedOut: boolean,
  finality: Finality,
): number | null {
  if (exitCode === null || timedOut) return null;
  if (finality === 'exact') return exitCode;
  if (finality === 'if-zero') return exitCode === 0 ? 0 : null;
  if (finality === 'if-nonzero') return exitCode !== 0 ? exitCode : null;
  return null;
}
