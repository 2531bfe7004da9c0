/**
 * Workspace snapshot in one exec: a Python program from the read-only image, run as root in
 * isolated mode (-I: no PYTHON* variables, no user site, the current directory not on sys.path;
 * -S: no site hooks), so nothing the agent wrote can take part in it. It never follows a symlink,
 * even one swapped in while it walks: every directory and file is opened with O_NOFOLLOW relative
 * to its parent's descriptor, and a file is hashed only if it is still the regular file listed.
 */
import { InfraError } from '../../util/errors.js';
import { type SnapshotEntry, WORKSPACE_DIR, type WorkspaceSnapshot } from '../types.js';
import type { RawRunner } from './raw-runner.js';

// Output: JSON list of [path, kind, ...]; ensure_ascii keeps odd bytes (as surrogate escapes) exact.
const SNAPSHOT_PY = `
import hashlib, json, os, stat, sys
root = sys.argv[1]
skip = set(sys.argv[2:])  # read-only mounts: they cannot change, so they are no part of the diff
out = []
DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
def open_dir(rel):
    # Component by component with O_NOFOLLOW: a directory swapped for a link mid-walk is not entered.
    fd = os.open(root, DIR)
    for part in rel.split("/") if rel else []:
        try:
            child = os.open(part, DIR, dir_fd=fd)
        finally:
            os.close(fd)
        fd = child
    return fd
def file_entry(name, dir_fd, st):
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode) or fst.st_ino != st.st_ino:
            return None
        h = hashlib.sha256()
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            h.update(chunk)
            size += len(chunk)
        return ["f", h.hexdigest(), size, stat.S_IMODE(fst.st_mode)]
    finally:
        os.close(fd)
def special(m):
    return "fifo" if stat.S_ISFIFO(m) else "socket" if stat.S_ISSOCK(m) else "device"
stack = [""]
while stack:
    rel = stack.pop()
    try:
        dfd = open_dir(rel)
    except OSError:
        continue  # removed or replaced by a process still running since it was listed
    try:
        with os.scandir(dfd) as it:
            entries = list(it)
        for e in entries:
            r = rel + "/" + e.name if rel else e.name
            if r in skip:
                continue
            try:
                st = e.stat(follow_symlinks=False)
                m = st.st_mode
                if stat.S_ISLNK(m):
                    out.append([r, "l", os.readlink(e.name, dir_fd=dfd)])
                elif stat.S_ISDIR(m):
                    out.append([r, "d", stat.S_IMODE(m)])
                    stack.append(r)
                elif stat.S_ISREG(m):
                    try:
                        f = file_entry(e.name, dfd, st)
                    except OSError:
                        f = None  # swapped for a link or removed while being read
                    out.append([r] + f if f else [r, "x", "changed", stat.S_IMODE(m)])
                else:
                    out.append([r, "x", special(m), stat.S_IMODE(m)])
            except FileNotFoundError:
                continue
    finally:
        os.close(dfd)
json.dump(out, sys.stdout, separators=(",", ":"))
`;

type Wire =
  | [string, 'f', string, number, number]
  | [string, 'l', string]
  | [string, 'd', number]
  | [string, 'x', string, number];

const MAX_SNAPSHOT_JSON = 64 * 1024 * 1024;

/** `skip`: workspace-relative names of read-only mounts, left out of the snapshot. */
export async function snapshotWorkspace(
  run: RawRunner,
  skip: readonly string[] = [],
): Promise<WorkspaceSnapshot> {
  const r = await run({
    argv: ['/usr/bin/python3', '-I', '-S', '-c', SNAPSHOT_PY, WORKSPACE_DIR, ...skip],
    user: 'root',
    maxStdoutBytes: MAX_SNAPSHOT_JSON,
    maxStderrBytes: 16 * 1024,
    deadlineMs: 120_000,
  });
  if (r.exitCode !== 0 || r.stdoutDropped > 0) {
    const why =
      r.stdoutDropped > 0 ? 'listing too large' : r.stderr.toString('utf8').trim().split('\n').slice(-1)[0];
    throw new InfraError(`workspace snapshot failed: ${why}`);
  }
  const entries = new Map<string, SnapshotEntry>();
  for (const row of JSON.parse(r.stdout.toString('utf8')) as Wire[]) entries.set(row[0], toEntry(row));
  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function toEntry(row: Wire): SnapshotEntry {
  switch (row[1]) {
    case 'f':
      return { kind: 'file', sha256: row[2], size: row[3], mode: row[4] };
    case 'l':
      return { kind: 'symlink', target: row[2] };
    case 'd':
      return { kind: 'dir', mode: row[2] };
    case 'x':
      // A FIFO, socket or device (or a file swapped for one mid-read) has no content to hash;
      // recorded as an empty file with a marker hash so any appearance or change still shows.
      return { kind: 'file', sha256: `special:${row[2]}`, size: 0, mode: row[3] };
  }
}
