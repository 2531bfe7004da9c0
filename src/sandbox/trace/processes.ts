/** The parser's per-process state, and its folding into records (records.ts). */
import type { Descriptors, OpenFile } from './descriptors.js';
import type { FileOpen, ProcessRecord, ProgramRun } from './records.js';
import { stdinFile } from './stdin.js';

/** What a fork copies and threads share: the working directory and the descriptor table. */
export interface FsState {
  /** null once it changed through a descriptor the trace did not see opened. */
  cwd: string | null;
  fds: Descriptors;
}

/** The state a forked child starts with. */
export function copyFs(fs: FsState): FsState {
  return { cwd: fs.cwd, fds: new Map([...fs.fds].map(([fd, d]) => [fd, { ...d }])) };
}

/** One successful exec: the program, its place in the trace, and what fd 0 and 1 were then. */
interface Run {
  run: Omit<ProgramRun, 'stdin'>;
  at: number;
  stdin: OpenFile | null;
  stdout: OpenFile | null;
}

export interface Proc {
  pid: number;
  parent: Proc | null;
  fs: FsState;
  /** Successful execs in order (records are ordered by the first). */
  runs: Run[];
  /** Harness programs still to come before the command's own (the first process only). */
  harness: number;
  /** Whether what it does is recorded: the first process is not until the command's program runs. */
  live: boolean;
  opens: FileOpen[];
  /** The files it opened, with its phase then (how many programs it had run). */
  opened: { file: OpenFile; phase: number }[];
  removed: string[];
  renamed: { from: string; to: string }[];
  exitCode: number | null;
  signal: string | null;
}

export function newProc(pid: number, parent: Proc | null, fs: FsState): Proc {
  return {
    pid,
    parent,
    fs,
    runs: [],
    harness: 0,
    live: true,
    opens: [],
    opened: [],
    removed: [],
    renamed: [],
    exitCode: null,
    signal: null,
  };
}

/**
 * One record per process that ran a program, in the order they first did. What a process that
 * never exec'd did (a subshell's redirection, a pipeline's builtin side) goes to its nearest
 * ancestor that did; with none (the harness's own part of the first process), it is dropped.
 */
export function toRecords(procs: readonly Proc[]): ProcessRecord[] {
  const owner = (p: Proc | null): Proc | null => {
    let q = p;
    while (q !== null && q.runs.length === 0) q = q.parent;
    return q;
  };
  const folded = new Map<Proc, Pick<Proc, 'opens' | 'removed' | 'renamed'>>();
  for (const p of procs) {
    const into = owner(p);
    if (into === null) continue;
    const acc = folded.get(into) ?? { opens: [], removed: [], renamed: [] };
    acc.opens.push(...p.opens);
    acc.removed.push(...p.removed);
    acc.renamed.push(...p.renamed);
    folded.set(into, acc);
  }
  const recorded = procs.filter((p) => p.runs.length > 0);
  recorded.sort((a, b) => (a.runs[0]?.at ?? 0) - (b.runs[0]?.at ?? 0));
  return recorded.map((p) => {
    const runs = p.runs.map((r, i): ProgramRun => ({ ...r.run, stdin: stdinFile(p, i, procs) }));
    const last = runs[runs.length - 1] as ProgramRun;
    const acc = folded.get(p) ?? { opens: [], removed: [], renamed: [] };
    return {
      pid: p.pid,
      parentPid: owner(p.parent)?.pid ?? null,
      exe: last.exe,
      argv: last.argv,
      cwd: last.cwd,
      stdin: last.stdin,
      runs,
      exitCode: p.exitCode,
      signal: p.signal,
      opens: uniqueOpens(acc.opens),
      removed: [...new Set(acc.removed)],
      renamed: acc.renamed,
    };
  });
}

function uniqueOpens(opens: readonly FileOpen[]): FileOpen[] {
  const seen = new Set<string>();
  return opens.filter((o) => {
    const key = `${o.write ? 'w' : 'r'}${o.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
