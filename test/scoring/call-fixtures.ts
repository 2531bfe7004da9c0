/** Tool-call logs for scoring tests. */
import type { ToolCallLog } from '../../src/results/trial.js';

export function shell(
  command: string,
  opts: { cwd?: string; exit?: number | null; timedOut?: boolean } = {},
): ToolCallLog {
  return call('execute_command', { command }, opts);
}

export function readFile(
  path: string,
  extra: Record<string, unknown> = {},
  opts: { cwd?: string; exit?: number } = {},
): ToolCallLog {
  return call('read_file', { path, ...extra }, opts);
}

export function writeFile(
  path: string,
  content: string,
  opts: { cwd?: string; exit?: number } = {},
): ToolCallLog {
  return call('write_file', { path, content }, opts);
}

function call(
  name: string,
  args: Record<string, unknown>,
  opts: { cwd?: string; exit?: number | null; timedOut?: boolean },
): ToolCallLog {
  return {
    name,
    arguments: args,
    raw_arguments: JSON.stringify(args),
    source: 'native',
    invalid: null,
    cwd: opts.cwd ?? '/workspace',
    exit_code: opts.exit === undefined ? 0 : opts.exit,
    stdout: '',
    stderr: '',
    truncated: false,
    timed_out: opts.timedOut ?? false,
    elapsed_ms: 1,
  };
}
