/** Tool-call logs for scoring tests. */
import type { ProcessLog, ToolCallLog } from '../../src/results/trial.js';
import type { Word } from '../../src/scoring/shell-words.js';
import type { DeclaredWrites } from '../../src/tasks/types.js';

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

/**
 * A traced shell call: what the model was shown (stdout) and what the sandbox's trace saw run. The
 * first process is the command's own shell (pid 1), the rest are its children unless `parent` says.
 */
export function traced(
  command: string,
  opts: { exit?: number | null; stdout?: string; stderr?: string; cwd?: string; processes?: ProcessLog[] },
): ToolCallLog {
  const cwd = opts.cwd ?? '/workspace';
  const shellProcess = proc(['bash', '-c', command], { pid: 1, parent: null, cwd, exit: opts.exit ?? 0 });
  return {
    ...shell(command, { cwd, exit: opts.exit === undefined ? 0 : opts.exit }),
    stdout: opts.stdout ?? '',
    stderr: opts.stderr ?? '',
    processes: [shellProcess, ...(opts.processes ?? [])],
    trace_truncated: false,
  };
}

let nextPid = 100;

export function proc(
  argv: string[],
  o: {
    pid?: number;
    parent?: number | null;
    exe?: string;
    cwd?: string;
    exit?: number | null;
    signal?: string;
    reads?: string[];
    writes?: string[];
  } = {},
): ProcessLog {
  return {
    pid: o.pid ?? nextPid++,
    parent_pid: o.parent === undefined ? 1 : o.parent,
    exe: o.exe ?? (argv[0]?.startsWith('/') ? argv[0] : `/usr/bin/${argv[0]}`),
    argv,
    cwd: o.cwd ?? '/workspace',
    exit_code: o.signal === undefined ? (o.exit === undefined ? 0 : o.exit) : null,
    signal: o.signal ?? null,
    reads: o.reads ?? [],
    writes: o.writes ?? [],
    removed: [],
    renamed_to: [],
  };
}

/** A traced argv as the words the runner detectors take: every word literal, as the trace gives it. */
export function argvWords(...argv: string[]): Word[] {
  return argv.map((text) => ({
    text,
    pattern: text.replace(/[\\*?[\]{}]/g, '\\$&'),
    dynamic: false,
    quoted: false,
    substitutions: [],
  }));
}

/** A task that lets the agent write anywhere in the workspace: only /tmp is the agent's own. */
export const WRITES_ANYWHERE: DeclaredWrites = { allowed: ['**'], ignored: [] };
