/**
 * Traced execute_command logs for unit tests: the command text and the processes it ran, shaped as
 * the sandbox's trace gives them (the call's own `bash -c` shell first, then each program with its
 * absolute exe, argv, directory and own exit code). An interpreter's script is opened by it, so by
 * default every argument that names a script (.sh .py .js .mjs) is among the process's reads.
 */
import { posix } from 'node:path';
import type { ProcessLog, ToolCallLog } from '../../src/results/trial.js';

export interface Proc {
  argv: string[];
  /** Default: argv[0] resolved against cwd when it holds a slash, else /usr/bin/<argv[0]>. */
  exe?: string | null;
  /** Default: the call's cwd. */
  cwd?: string;
  exit?: number | null;
  signal?: string;
  /** Absolute paths; default: the script-like arguments, resolved. */
  reads?: string[];
}

const SCRIPT = /\.(sh|py|js|mjs|cjs)$/;

export function traced(
  command: string,
  procs: Proc[],
  opts: { cwd?: string; exit?: number | null } = {},
): ToolCallLog {
  const cwd = opts.cwd ?? '/workspace';
  const shellPid = 100;
  const shell: ProcessLog = record(shellPid, null, {
    argv: ['/bin/bash', '-c', 'eval "$__agent_bench_command"', 'bash', cwd, command],
    exe: '/bin/bash',
    cwd: '/',
    exit: opts.exit ?? 0,
    reads: [],
  });
  const processes = [shell, ...procs.map((p, i) => record(shellPid + 1 + i, shellPid, { cwd, ...p }))];
  return {
    name: 'execute_command',
    arguments: { command },
    raw_arguments: JSON.stringify({ command }),
    source: 'native',
    invalid: null,
    cwd,
    exit_code: opts.exit === undefined ? 0 : opts.exit,
    stdout: '',
    stderr: '',
    truncated: false,
    timed_out: false,
    elapsed_ms: 1,
    processes,
  };
}

/** The same call as the harness stored it without a trace (`processes` absent). */
export function untraced(log: ToolCallLog): ToolCallLog {
  const { processes: _, ...rest } = log;
  return rest;
}

function record(pid: number, parent: number | null, p: Proc & { cwd: string }): ProcessLog {
  const [first = ''] = p.argv;
  const exe =
    p.exe !== undefined ? p.exe : first.includes('/') ? posix.resolve(p.cwd, first) : `/usr/bin/${first}`;
  const reads = p.reads ?? p.argv.slice(1).flatMap((a) => (SCRIPT.test(a) ? [posix.resolve(p.cwd, a)] : []));
  return {
    pid,
    parent_pid: parent,
    exe,
    argv: p.argv,
    cwd: p.cwd,
    exit_code: p.signal === undefined ? (p.exit ?? 0) : null,
    signal: p.signal ?? null,
    reads,
    writes: [],
    removed: [],
    renamed_to: [],
  };
}
