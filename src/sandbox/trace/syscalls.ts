/**
 * What each traced syscall means for its process (see sandbox/exec-wrapper.sh for the list).
 * Only calls that succeeded count: a PATH search's failed execs are no runs, a refused open no read.
 */
import { posix } from 'node:path';
import { afterExec, applyDescriptorCall, fileOf, type OpenFile, openOn, pathOf } from './descriptors.js';
import type { Proc } from './processes.js';
import { decodeString, decodeStringArray, splitArgs } from './strace-args.js';
import type { TraceEvent } from './strace-lines.js';

type Call = Extract<TraceEvent, { kind: 'call' }>;

/** A fork's child: a thread shares its process's state, a process gets a copy. */
export interface Forked {
  tid: number;
  thread: boolean;
}

const FORKS = new Set(['clone', 'clone3', 'fork', 'vfork']);
const WRITE_FLAGS = /\b(O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND|O_TMPFILE)\b/;

/** Applies one call to `proc` (`at`: its place in the trace); returns the child of a fork. */
export function applyCall(proc: Proc, call: Call, at: number): Forked | null {
  const value = returned(call.result);
  if (value === null || value < 0) return null;
  const args = splitArgs(call.args);
  const arg = (i: number): string => args[i] ?? '';
  if (FORKS.has(call.name))
    return value > 0 ? { tid: value, thread: /\bCLONE_THREAD\b/.test(call.args) } : null;
  if (applyDescriptorCall(proc.fs.fds, call.name, args, value)) return null;
  switch (call.name) {
    case 'execve':
      return exec(proc, at, resolve(proc, 'AT_FDCWD', arg(0)), arg(1));
    case 'execveat':
      return exec(
        proc,
        at,
        arg(1) === '""' ? pathOf(proc.fs.fds, arg(0)) : resolve(proc, arg(0), arg(1)),
        arg(2),
      );
    case 'read':
    case 'readv':
      return used(proc, arg(0), value);
    case 'preadv2': // at the file's offset (and moving it) only when told offset -1
      return /^(-1|0xffffffffffffffff)$/.test(arg(3)) ? used(proc, arg(0), value) : null;
    case 'lseek':
      return used(proc, arg(0), null);
    case 'sendfile':
      return arg(2) === 'NULL' ? used(proc, arg(1), null) : null;
    case 'splice':
    case 'copy_file_range':
      return arg(1) === 'NULL' ? used(proc, arg(0), null) : null;
    case 'pipe':
    case 'pipe2':
      return piped(proc, arg(0), arg(1));
    case 'chdir':
      proc.fs.cwd = resolve(proc, 'AT_FDCWD', arg(0));
      return null;
    case 'fchdir':
      proc.fs.cwd = pathOf(proc.fs.fds, arg(0));
      return null;
    case 'open':
      return opened(proc, value, resolve(proc, 'AT_FDCWD', arg(0)), arg(1));
    case 'creat':
      return opened(proc, value, resolve(proc, 'AT_FDCWD', arg(0)), 'O_CREAT|O_WRONLY|O_TRUNC');
    case 'openat':
    case 'openat2': // its flags are inside the struct argument; the patterns find them there too
      return opened(proc, value, resolve(proc, arg(0), arg(1)), arg(2));
    case 'rename':
      return renamed(proc, resolve(proc, 'AT_FDCWD', arg(0)), resolve(proc, 'AT_FDCWD', arg(1)));
    case 'renameat':
    case 'renameat2':
      return renamed(proc, resolve(proc, arg(0), arg(1)), resolve(proc, arg(2), arg(3)));
    case 'unlink':
    case 'rmdir':
      return removed(proc, resolve(proc, 'AT_FDCWD', arg(0)));
    case 'unlinkat':
      return removed(proc, resolve(proc, arg(0), arg(1)));
    default:
      return null;
  }
}

/** A call's return value: decimal, or hexadecimal for the calls traced raw (`= 0x340`). */
function returned(result: string): number | null {
  const m = /^(-?)(0x[0-9a-f]+|\d+)/.exec(result);
  if (m === null) return null;
  const v = Number(m[2]);
  return m[1] === '-' ? -v : v;
}

function exec(proc: Proc, at: number, exe: string | null, argv: string): null {
  const fds = proc.fs.fds;
  afterExec(fds);
  if (proc.harness > 0) {
    proc.harness--;
    return null;
  }
  // An unreadable argument (a process that made itself undumpable) is printed as an address.
  const run = { exe, argv: decodeStringArray(argv), cwd: proc.fs.cwd };
  proc.runs.push({ run, at, stdin: fds.get(0)?.file ?? null, stdout: fds.get(1)?.file ?? null });
  proc.live = true;
  return null;
}

function opened(proc: Proc, fd: number, path: string | null, flags: string): null {
  if (path === null) {
    proc.fs.fds.delete(fd);
    return null;
  }
  const readable = /\b(O_RDONLY|O_RDWR)\b/.test(flags) && !/\bO_TRUNC\b/.test(flags);
  const file: OpenFile = { path, pipe: null, readable, uses: [] };
  openOn(proc.fs.fds, fd, file, /\bO_CLOEXEC\b/.test(flags));
  proc.opened.push({ file, phase: proc.runs.length });
  // A forked shell lists a directory to expand a glob before it execs the program: no read of it.
  const glob = proc.runs.length === 0 && proc.parent !== null && /\bO_DIRECTORY\b/.test(flags);
  if (proc.live && !glob) proc.opens.push({ path, write: WRITE_FLAGS.test(flags) });
  return null;
}

/** A read or seek of the open file behind `fdArg` (bytes: how much was read, or null). */
function used(proc: Proc, fdArg: string, bytes: number | null): null {
  fileOf(proc.fs.fds, fdArg)?.uses.push({ by: proc, phase: proc.runs.length, bytes });
  return null;
}

/** `pipe2([3, 4], O_CLOEXEC)`: a read end and a write end of one pipe. */
function piped(proc: Proc, fdsArg: string, flags: string): null {
  const fds = /^\[(\d+), (\d+)\]$/.exec(fdsArg);
  if (fds === null) return null;
  const id = {};
  const cloexec = /\bO_CLOEXEC\b/.test(flags);
  const end = (e: 'read' | 'write'): OpenFile => ({
    path: null,
    pipe: { id, end: e },
    readable: e === 'read',
    uses: [],
  });
  openOn(proc.fs.fds, Number(fds[1]), end('read'), cloexec);
  openOn(proc.fs.fds, Number(fds[2]), end('write'), cloexec);
  return null;
}

function renamed(proc: Proc, from: string | null, to: string | null): null {
  if (proc.live && from !== null && to !== null) proc.renamed.push({ from, to });
  return null;
}

function removed(proc: Proc, path: string | null): null {
  if (proc.live && path !== null) proc.removed.push(path);
  return null;
}

/** Absolute form of a path argument relative to `dirfd` (`AT_FDCWD` or a number); null if unknown. */
function resolve(proc: Proc, dirfd: string, pathArg: string): string | null {
  const path = decodeString(pathArg);
  if (path === null) return null;
  if (path.startsWith('/')) return posix.resolve(path);
  const base = dirfd === 'AT_FDCWD' ? proc.fs.cwd : pathOf(proc.fs.fds, dirfd);
  return base === null ? null : posix.resolve(base, path);
}
