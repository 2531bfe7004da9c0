/**
 * A process's descriptor table as far as the trace shows it: which path each descriptor was opened
 * on, followed through close, dup and fcntl, and dropped at exec when close-on-exec. A descriptor
 * the trace did not see opened (inherited from before the trace, passed over a socket) is unknown:
 * paths relative to it resolve to nothing rather than to a stale entry.
 */

interface Descriptor {
  path: string;
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

/** What exec does to the table: close-on-exec descriptors are gone. */
export function afterExec(fds: Descriptors): void {
  for (const [fd, d] of fds) if (d.cloexec) fds.delete(fd);
}

export function pathOf(fds: Descriptors, fdArg: string): string | null {
  return /^\d+$/.test(fdArg) ? (fds.get(Number(fdArg))?.path ?? null) : null;
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
  else fds.set(to, { path: d.path, cloexec });
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
