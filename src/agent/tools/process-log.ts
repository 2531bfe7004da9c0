/**
 * The sandbox's process trace of one command, trimmed for the results file: what ran (every program
 * of each process, with arguments, directory and the file on its standard input, and the process's
 * exit) and which files under /workspace, /tmp and /dev/shm it touched. Files outside (the interpreter's
 * libraries, /proc) say nothing about the task and would bloat every record; /dev/null is kept,
 * since output sent there never reached the model.
 */
import type { ProcessLog, ProgramLog } from '../../results/trial.js';
import type { ExecTrace, ProgramRun } from '../../sandbox/types.js';

const MAX_PROCESSES = 400;
const MAX_RUNS = 16;
const MAX_ARGS = 64;
const MAX_ARG_CHARS = 1024;
const MAX_PATHS = 400;
// /dev/shm too: with /tmp, the only places outside the workspace the agent can write to.
const TASK_FILES = /^\/(workspace|tmp|dev\/shm)(\/|$)/;
// /dev/null too: output sent there never reached the model (runner-runs.ts).
const KEPT = /^\/(workspace|tmp|dev\/shm)(\/|$)|^\/dev\/null$/;

export function processLogs(trace: ExecTrace): { processes: ProcessLog[]; truncated: boolean } {
  const kept = trace.processes.slice(0, MAX_PROCESSES);
  // A cut trace may lack a later read of a program's input, so no input is vouched for.
  const withStdin = !trace.truncated;
  return {
    processes: kept.map((p) => {
      // The earliest runs are kept: the script a chain started from, not the middle of a long one.
      const earlier = p.runs.slice(0, -1).slice(0, MAX_RUNS - 1);
      return {
        pid: p.pid,
        parent_pid: p.parentPid,
        ...program(p, withStdin),
        ...(earlier.length > 0 ? { earlier_runs: earlier.map((r) => program(r, withStdin)) } : {}),
        exit_code: p.exitCode,
        signal: p.signal,
        reads: paths(p.opens.filter((o) => !o.write).map((o) => o.path)),
        writes: paths(p.opens.filter((o) => o.write).map((o) => o.path)),
        removed: paths([...p.removed, ...p.renamed.map((r) => r.from)]),
        renamed_to: paths(p.renamed.map((r) => r.to)),
      };
    }),
    truncated: trace.truncated || trace.processes.length > kept.length,
  };
}

function program(r: ProgramRun, withStdin: boolean): ProgramLog {
  const stdin = withStdin && r.stdin !== null && TASK_FILES.test(r.stdin) ? { stdin_file: r.stdin } : {};
  return {
    exe: r.exe,
    argv: r.argv === null ? null : r.argv.slice(0, MAX_ARGS).map((a) => a.slice(0, MAX_ARG_CHARS)),
    cwd: r.cwd,
    ...stdin,
  };
}

function paths(all: readonly string[]): string[] {
  return [...new Set(all.filter((p) => KEPT.test(p)))].slice(0, MAX_PATHS);
}
