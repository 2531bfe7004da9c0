/**
 * strace output → the processes a command ran (records.ts). Pure: the text in, records out.
 * Working directories and descriptors are followed per process (copied at fork, shared between
 * threads), so relative paths resolve as the kernel resolved them, without strace's -y (it reads
 * /proc/PID/fd, which root without CAP_SYS_PTRACE may not do for the agent's processes).
 */
import { copyFs, newProc, type Proc, toRecords } from './processes.js';
import type { ProcessRecord } from './records.js';
import { traceEvents } from './strace-lines.js';
import { applyCall } from './syscalls.js';

export interface ParseOptions {
  /** Working directory of the first process when the trace starts. */
  initialCwd: string;
  /**
   * Programs the first process runs for the harness before the command's own (setpriv, the
   * wrapper's `cd` shell): neither they nor what the process does before the next exec is recorded.
   */
  harnessExecs: number;
}

export function parseTrace(text: string, options: ParseOptions): ProcessRecord[] {
  const byTid = new Map<number, Proc>();
  const procs: Proc[] = [];
  const track = (tid: number, proc: Proc): Proc => {
    byTid.set(tid, proc);
    procs.push(proc);
    return proc;
  };
  let at = 0;
  for (const event of traceEvents(text)) {
    const proc = byTid.get(event.tid) ?? track(event.tid, unknown(event.tid, procs[0], options));
    if (event.kind === 'call') {
      const child = applyCall(proc, event, at++);
      if (child?.thread) byTid.set(child.tid, proc);
      else if (child) track(child.tid, newProc(child.tid, proc, copyFs(proc.fs)));
    } else if (event.tid === proc.pid) {
      // A thread's own exit says nothing about its process; the leader's does.
      proc.exitCode = event.kind === 'exit' ? event.code : null;
      proc.signal = event.kind === 'killed' ? event.signal : null;
    }
  }
  return toRecords(procs);
}

/** The first tid is the command; a later unknown one was forked where the trace lost the fork. */
function unknown(tid: number, first: Proc | undefined, options: ParseOptions): Proc {
  if (first !== undefined) return newProc(tid, first, { cwd: null, fds: new Map() });
  const root = newProc(tid, null, { cwd: options.initialCwd, fds: new Map() });
  root.harness = options.harnessExecs;
  root.live = false;
  return root;
}
