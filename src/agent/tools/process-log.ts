/**
 * The sandbox's process trace of one command, trimmed for the results file: what ran (program,
 * arguments, directory, exit) and which files under /workspace and /tmp it touched. Files outside
 * (the interpreter's libraries, /proc) say nothing about the task and would bloat every record;
 * /dev/null is kept, since output sent there never reached the model.
 */
import type { ProcessLog } from '../../results/trial.js';
import type { ExecTrace } from '../../sandbox/types.js';

const MAX_PROCESSES = 400;
const MAX_ARGS = 64;
const MAX_ARG_CHARS = 1024;
const MAX_PATHS = 400;
// /dev/null too: output sent there never reached the model (runner-runs.ts).
const KEPT = /^\/(workspace|tmp)(\/|$)|^\/dev\/null$/;

export function processLogs(trace: ExecTrace): { processes: ProcessLog[]; truncated: boolean } {
  const kept = trace.processes.slice(0, MAX_PROCESSES);
  return {
    processes: kept.map((p) => ({
      pid: p.pid,
      parent_pid: p.parentPid,
      exe: p.exe,
      argv: p.argv === null ? null : p.argv.slice(0, MAX_ARGS).map((a) => a.slice(0, MAX_ARG_CHARS)),
      cwd: p.cwd,
      exit_code: p.exitCode,
      signal: p.signal,
      reads: paths(p.opens.filter((o) => !o.write).map((o) => o.path)),
      writes: paths(p.opens.filter((o) => o.write).map((o) => o.path)),
      removed: paths([...p.removed, ...p.renamed.map((r) => r.from)]),
      renamed_to: paths(p.renamed.map((r) => r.to)),
    })),
    truncated: trace.truncated || trace.processes.length > kept.length,
  };
}

function paths(all: readonly string[]): string[] {
  return [...new Set(all.filter((p) => KEPT.test(p)))].slice(0, MAX_PATHS);
}
