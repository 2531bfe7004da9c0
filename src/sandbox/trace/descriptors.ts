/**
 * A process's descriptor table as far as the trace shows it: which open file (a path opened, or a
 * pipe's end) each descriptor refers to, followed through close, dup and fcntl, and dropped at exec
 * when close-on-exec. A descriptor the trace did not see opened (inherited from before the trace,
 * passed over a socket) is unknown: paths relative to it resolve to nothing rather than to a stale
 * entry. Descriptors duplicated by dup or fork share one OpenFile, as they share one open file
 * description in the kernel: its offset, and so whoever read from it.
 */

/** One open file description: what one open or pipe call created. */
export interface OpenFile {
  /** The path opened; null for a pipe's end. */
  path: string | null;
  /** A pipe's end: the pipe (both ends share `id`, compared by identity), and which end. */
  pipe: { id: object; end: 'read' | 'write' } | null;
  /** Opened for reading (O_RDONLY or O_RDWR) and not truncated by the open. */
  readable: boolean;
  /** Every call that read from it or moved its offset, in trace order. */
  uses: FileUse[];
}

/** A read or seek of an open file, by a process in one of its phases (see Proc.runs). */
export interface FileUse {
  /** The process (its parser state), compared by identity. */
  by: object;
  /** How many programs the process had run at the time: 0 before its first exec. */
  phase: number;
  /** Bytes read (0: end of file); null for a seek or a transfer whose size does not count. */
  bytes: number | null;
}

interface Descriptor {
  file: OpenFile;
  cloexec: boolean;
}

export type Descriptors = Map<number, Descriptor>;

/** Applies a successful descriptor call (close, close_range, dup*, fcntl); true if it was one. */
export function applyDescriptorCall(fds: Descriptors, name: string, args: string[], ret: number): boolean {
  const n = (i: number): number => toNumber(args[i] ?? '');
  switch (name) {
    case 'close':
      fds.delete(n(0));
      return true;
    case 'close_range':
      closeRange(fds, n(0), n(1), /CLOSE_RANGE_CLOEXEC/.test(args[2] ?? ''));
      return true;
    case 'dup':
      copy(fds, n(0), ret, false);
      return true;
    case 'dup2':
    case 'dup3':
      if (n(0) !== ret) copy(fds, n(0), ret, /O_CLOEXEC/.test(args[2] ?? ''));
      return true;
    case 'fcntl':
      fcntl(fds, n(0), args[1] ?? '', args[2] ?? '', ret);
      return true;
    default:
      return false;
  }
}

/** Records a new open file on `fd` (replacing whatever the number meant before). */
export function openOn(fds: Descriptors, fd: number, file: OpenFile, cloexec: boolean): void {
  fds.set(fd, { file, cloexec });
}

/** What exec does to the table: close-on-exec descriptors are gone. */
export function afterExec(fds: Descriptors): void {
  for (const [fd, d] of fds) if (d.cloexec) fds.delete(fd);
}

export function pathOf(fds: Descriptors, fdArg: string): string | null {
  return fileOf(fds, fdArg)?.path ?? null;
}

/** The open file a descriptor argument (`3`, or raw `0x3`) refers to, if the trace knows it. */
export function fileOf(fds: Descriptors, fdArg: string): OpenFile | null {
  return /^(\d+|0x[0-9a-f]+)$/.test(fdArg) ? (fds.get(Number(fdArg))?.file ?? null) : null;
}

function fcntl(fds: Descriptors, fd: number, cmd: string, arg: string, ret: number): void {
  if (cmd === 'F_DUPFD' || cmd === 'F_DUPFD_CLOEXEC') copy(fds, fd, ret, cmd === 'F_DUPFD_CLOEXEC');
  else if (cmd === 'F_SETFD') {
    const d = fds.get(fd);
    if (d !== undefined) d.cloexec = /FD_CLOEXEC|^1$/.test(arg);
  }
}

function copy(fds: Descriptors, from: number, to: number, cloexec: boolean): void {
  const d = fds.get(from);
  if (d === undefined) fds.delete(to);
  else fds.set(to, { file: d.file, cloexec });
}

function closeRange(fds: Descriptors, first: number, last: number, cloexecOnly: boolean): void {
  for (const [fd, d] of fds) {
    if (fd < first || fd > last) continue;
    if (cloexecOnly) d.cloexec = true;
    else fds.delete(fd);
  }
}

/** A descriptor or bound as strace prints it: `3`, `~0` (all bits set), `0x7fffffff`. */
function toNumber(arg: string): number {
  if (arg.startsWith('~')) return Number.MAX_SAFE_INTEGER;
  const v = Number(arg);
  return Number.isFinite(v) ? v : -1;
}
