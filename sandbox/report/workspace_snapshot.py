# agent-bench workspace snapshot: every entry under /workspace, as root, from the read-only image
# (host side: src/sandbox/docker/snapshot.ts). Run at the end of an agent command inside the
# command's own exec (exec_report.py), or on its own: `python3 -I -S -c BOOT snapshot SPEC`.
#
# It never follows a symlink, even one swapped in while it walks: every directory and file is
# opened with O_NOFOLLOW relative to its parent's descriptor, and a file is hashed only if it is
# still the regular file listed.
#
# Speed: a root-only state file keeps, per path, the entry and the file's stat key (device, inode,
# size, mtime, ctime) of the last snapshot, so an unchanged file is not read again, and the host
# gets only what changed since the snapshot it holds (the ids say which). Nobody can set a ctime
# (it is the kernel's clock at the last change of content, mode, name or link count), so a file
# with the same key has the same content, but for two holes the cache closes:
#  - a change within the clock tick of the snapshot that read the file: a hash is kept only for a
#    file whose ctime is older than the snapshot's start (the ctime of a file it creates first);
#  - writes through a shared writable mapping change no timestamp once the page is dirty (tmpfs
#    updates times at the first write fault only): a file some agent process maps shared gets no
#    kept hash, and when an agent process hides its mappings (not dumpable) no file does.
# Processes of other users cannot reach /workspace (it is 0750, the agent's).
#
# SPEC: BASE:NEW:REHASH:BUDGET_S[:SKIP...]. BASE is the id of the listing the host holds (`-`:
# none), NEW the id to save this one under, REHASH=1 reads every file whatever the cache says,
# BUDGET_S bounds the walk, SKIP are top-level names left out (read-only mounts).
# Output: `delta BASE NEW MS\n` or `full NEW MS\n` (NEW is `-` when the state could not be
# saved; MS the time taken), then records, every field ended by a NUL byte:
#   f PATH SHA256 SIZE MODE | l PATH TARGET | d PATH MODE | x PATH WHAT MODE | - PATH (removed)
# or `failed REASON\n` and nothing else. Paths and targets are the names' exact bytes.
import marshal
import os
import stat
import struct
import sys
import threading
import time
from stat import S_IMODE, S_ISDIR, S_ISREG

# The file tools' identity switch (sandbox/relay/, installed next to this folder).
sys.path.insert(1, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "relay"))
from file_tool import as_fs_user  # noqa: E402

try:
    from _sha256 import sha256  # built in: hashlib would load OpenSSL, a slower start
except ImportError:
    from hashlib import sha256

ROOT = "/workspace"
STATE = "/run/agent-bench/snapshot.state"
AGENT_UID = 1000
MAX_OUTPUT = 64 << 20
DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
# A file's stat key: device, inode, size, mtime, ctime (ns), mode.
KEY = struct.Struct("=QQqqqI")


class Failed(Exception):
    pass


class Request:
    def __init__(self, spec):
        parts = spec.split(":")
        if len(parts) < 4:
            raise Failed("bad snapshot spec")
        self.base, self.new, rehash, budget = parts[:4]
        self.rehash = rehash == "1"
        self.budget = float(budget)
        self.skip = set(parts[4:])


def load_state():
    """(id, {path: (record, stat key or None)}) of the last snapshot; (None, {}) when there is none."""
    try:
        fd = os.open(STATE, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None, {}
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 22)
            if not chunk:
                break
            chunks.append(chunk)
        sid, entries = marshal.loads(b"".join(chunks))
        return sid, entries
    except (OSError, ValueError, EOFError, TypeError):
        return None, {}
    finally:
        os.close(fd)


def shared_mappings():
    """(dev, ino) of files agent processes map shared, or None when some agent process hides its maps."""
    agents = [p for p in os.listdir("/proc") if p.isdigit() and is_agent(p)]
    if not agents:
        return set()
    # Root holds no CAP_SYS_PTRACE: only the agent's own uid may read its processes' maps. The
    # kernel checks the reader's filesystem uid for them, so a thread of ours with the agent's
    # filesystem identity may; unlike a process of the agent's uid, nothing the agent runs can
    # stop it (a `kill -STOP -1` loop would hold this snapshot, and the command with it).
    got = []
    reader = threading.Thread(target=read_maps, args=(agents, got))
    reader.start()
    reader.join()
    if not got or got[0] is None:
        return None
    data = got[0]
    mapped = set()
    for item in data.split(b"\n"):
        if item:
            dev, ino = item.split(b" ")
            major, minor = dev.split(b":")
            mapped.add((os.makedev(int(major, 16), int(minor, 16)), int(ino)))
    return mapped


def read_maps(agents, got):
    """Appends to `got` the shared mappings' "dev ino" lines, or None when some process hides them."""
    try:
        as_fs_user(AGENT_UID)
        out = []
        for p in agents:
            try:
                with open("/proc/%s/maps" % p, "rb") as f:
                    data = f.read()
            except (FileNotFoundError, ProcessLookupError):
                continue
            except PermissionError:
                got.append(None)
                return
            for line in data.split(b"\n"):
                fields = line.split(None, 5)
                if len(fields) >= 5 and fields[1][3:4] == b"s" and fields[4] != b"0":
                    out.append(fields[3] + b" " + fields[4])
        got.append(b"\n".join(out))
    except OSError:
        got.append(None)


def is_agent(pid):
    try:
        with open("/proc/%s/status" % pid, "rb") as f:
            for line in f:
                if line.startswith(b"Uid:"):
                    return str(AGENT_UID).encode() in line.split()[1:]
    except OSError:
        pass
    return False


def open_dir(rel):
    # Component by component with O_NOFOLLOW: a directory swapped for a link mid-walk is not entered.
    fd = os.open(ROOT, DIR)
    for part in rel.split("/") if rel else []:
        try:
            child = os.open(part, DIR, dir_fd=fd)
        finally:
            os.close(fd)
        fd = child
    return fd


def record(kind, rel, *fields):
    """One record of the output, NUL-ended fields (see the top of this file)."""
    parts = [kind, os.fsencode(rel)]
    parts.extend(f if isinstance(f, bytes) else b"%d" % f for f in fields)
    parts.append(b"")
    return b"\0".join(parts)


def key_of(st):
    return KEY.pack(st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_mode)


def read_file(rel, name, dir_fd, st):
    """(record, stat key it was read under, stat) or None if it is no longer the file listed."""
    fd = os.open(name, FILE, dir_fd=dir_fd)
    try:
        fst = os.fstat(fd)
        if not S_ISREG(fst.st_mode) or fst.st_ino != st.st_ino:
            return None
        h = sha256()
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            h.update(chunk)
            size += len(chunk)
        return record(b"f", rel, h.hexdigest().encode(), size, S_IMODE(fst.st_mode)), key_of(fst), fst
    finally:
        os.close(fd)


def special(m):
    return b"fifo" if stat.S_ISFIFO(m) else b"socket" if stat.S_ISSOCK(m) else b"device"


def walk(req, old, reuse, keep):
    """
    {path: (record, key or None)}, the records that differ from `old`, and whether anything in the
    state differs. A file's key is kept only where keep(stat) says a later change will show in it.
    """
    new = {}
    changed = []
    dirty = False
    stack = [""]
    deadline = time.monotonic() + req.budget
    seen = 0
    get = old.get
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
                seen += 1
                if seen & 1023 == 0 and time.monotonic() > deadline:
                    raise Failed("the workspace is too large to list within %g s" % req.budget)
                r = rel + "/" + e.name if rel else e.name
                if not rel and r in req.skip:
                    continue  # read-only mounts: they cannot change, so they are no part of the diff
                prev = get(r)
                try:
                    st = e.stat(follow_symlinks=False)
                    m = st.st_mode
                    k = None
                    if S_ISREG(m):
                        if reuse and prev is not None and prev[1] == key_of(st):
                            new[r] = prev  # the same file as last time: the same content
                            continue
                        try:
                            got = read_file(r, e.name, dfd, st)
                        except OSError:
                            got = None  # swapped for a link or removed while being read
                        if got is None:
                            rec = record(b"x", r, b"changed", S_IMODE(m))
                        else:
                            rec, k, fst = got
                            if not keep(fst):
                                k = None
                    elif S_ISDIR(m):
                        rec = record(b"d", r, S_IMODE(m))
                        stack.append(r)
                    elif stat.S_ISLNK(m):
                        rec = record(b"l", r, os.fsencode(os.readlink(e.name, dir_fd=dfd)))
                    else:
                        rec = record(b"x", r, special(m), S_IMODE(m))
                except FileNotFoundError:
                    continue
                if prev is not None and prev[0] == rec and prev[1] == k:
                    new[r] = prev
                    continue
                new[r] = (rec, k)
                dirty = True
                if prev is None or prev[0] != rec:
                    changed.append(rec)
        finally:
            os.close(dfd)
    return new, changed, dirty or len(new) != len(old)


def take(req, state):
    """The snapshot's output (see the top of this file), given the state loaded beforehand."""
    started = time.monotonic()
    sid, old = state
    try:
        # The start's ctime: the clock files are stamped with, read after everything before us.
        tmp = "%s.%d" % (STATE, os.getpid())
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
            since = os.fstat(fd).st_ctime_ns
        except OSError:
            fd, since = None, None
        try:
            mapped = shared_mappings()

            def keep(st):
                return (
                    since is not None
                    and mapped is not None
                    and st.st_ctime_ns < since
                    and (st.st_dev, st.st_ino) not in mapped
                )

            new, changed, dirty = walk(req, old, sid is not None and not req.rehash, keep)
            if req.base != "-" and sid == req.base:
                removed = [record(b"-", path) for path in old.keys() - new.keys()]
                body = b"".join(changed) + b"".join(removed)
                head = "delta %s" % req.base
            else:
                body = b"".join(rec for rec, _ in new.values())
                head = "full"
            if len(body) > MAX_OUTPUT:
                raise Failed("listing too large (%d bytes)" % len(body))
            saved = sid if sid is not None and not dirty else "-"
            if saved == "-" and fd is not None:
                try:
                    data = marshal.dumps((req.new, new))
                    while data:
                        data = data[os.write(fd, data) :]
                    os.rename(tmp, STATE)
                    saved = req.new
                except OSError:
                    pass
        finally:
            if fd is not None:
                os.close(fd)
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
    except (Failed, OSError) as err:
        return ("failed %s\n" % err).encode()
    ms = round((time.monotonic() - started) * 1000)
    return ("%s %s %d\n" % (head, saved, ms)).encode() + body


def main(spec):
    try:
        req = Request(spec)
    except (Failed, ValueError) as err:
        sys.stdout.buffer.write(("failed %s\n" % err).encode())
        return
    out = take(req, load_state())
    fd = sys.stdout.fileno()
    while out:
        out = out[os.write(fd, out) :]
