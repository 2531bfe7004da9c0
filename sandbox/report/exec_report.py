# agent-bench exec report: the second half of the exec wrapper (sandbox/exec-wrapper.sh explains
# the protocol). The wrapper starts it before the command, so that Python's start-up and the load
# of the snapshot state overlap the command, and hands it the command's exit status on stdin once
# the command is over. From then on it is the only writer of the exec's stdout (header, trace,
# snapshot, the command's capped stdout) and stderr (the command's capped stderr): the command
# and its background jobs only ever hold files in the exec's root-only directory.
# Args: HEAD_BYTES TAIL_BYTES TRACE_CAP (0: not traced) SNAPSHOT_SPEC|- (workspace_snapshot.py)
#   WATCH_UID|- (list that uid's processes still running once the command is over: its survivors)
# Stdin: one line, `EXIT_STATUS DIR` (DIR: the exec's directory, which it removes when done).
import binascii
import os
import sys
import time

import workspace_snapshot

EXEC_DIR = "/run/agent-bench"
SIGCONT = 18


def main(argv):
    """Never returns: the interpreter's own shutdown would only add to the exec's time."""
    head, tail, trace_cap, spec, watch = argv
    head, tail, trace_cap = int(head), int(tail), int(trace_cap)
    req = state = bad = None
    if spec != "-":
        try:
            req = workspace_snapshot.Request(spec)
            state = workspace_snapshot.load_state()
        except (workspace_snapshot.Failed, ValueError) as err:
            bad = ("failed %s\n" % err).encode()
    line = sys.stdin.buffer.readline().split(b" ", 1)
    if len(line) != 2 or not line[0].isdigit():
        os._exit(1)  # the wrapper died before the command ended: no header, and the host says so
    rc, d = int(line[0]), line[1].rstrip(b"\n").decode()
    status = 1
    try:
        report(d, rc, head, tail, trace_cap, req, state, bad, watch)
        status = 0
    except BaseException:
        import traceback

        traceback.print_exc()  # to the exec's stderr: the host shows its last lines
        sys.stderr.flush()
    finally:
        cleanup(d)
        os._exit(status)


def report(d, rc, head, tail, trace_cap, req, state, bad, watch):
    t = read_head("%s/t" % d, 1 << 20)
    timed = b"sending signal" in t
    if t and not timed:
        with open("%s/e" % d, "ab") as f:
            f.write(t)
    trace = None
    if trace_cap > 0:
        size = follow_survivors(d)
        trace = read_head("%s/s" % d, size)
    # Before the snapshot: a survivor that writes after this look is in the list, so whatever the
    # snapshot shows it may have done, the host knows it was there.
    alive_after = "-" if watch == "-" else (",".join(survivors(int(watch))) or "none")
    snapshot = bad
    if req is not None:
        try:
            snapshot = workspace_snapshot.take(req, state)
        except Exception as err:  # a bug here must not cost the command its result
            snapshot = ("failed internal error: %r\n" % err).encode()
    osz = os.stat("%s/o" % d).st_size
    esz = os.stat("%s/e" % d).st_size
    c = read_head("%s/c" % d, 8192)
    cwd = binascii.b2a_base64(c, newline=False).decode() if c else "-"
    vfs = os.statvfs(EXEC_DIR)
    # Background jobs of earlier commands keep writing to their (deleted) output files; if they
    # have filled the mount, the header says so rather than output going missing without a word.
    full = 1 if vfs.f_bavail * vfs.f_frsize < 1 << 20 else 0
    header = "agent-bench-exec %d %d %d %d %s %d %s %d %s %s\n" % (
        rc,
        1 if timed else 0,
        osz,
        esz,
        cwd,
        full,
        "-" if trace is None else len(trace),
        1 if trace is not None and len(trace) >= trace_cap else 0,
        "-" if snapshot is None else len(snapshot),
        alive_after,
    )
    out = [header.encode()]
    if trace is not None:
        out.append(trace)
    if snapshot is not None:
        out.append(snapshot)
    out.append(capped("%s/o" % d, osz, head, tail))
    write_all(1, b"".join(out))
    write_all(2, capped("%s/e" % d, esz, head, tail))


def follow_survivors(d):
    """
    The tracer outlives the command while traced background jobs run, and what they do next is
    still theirs: the host dates a change by the process that wrote it (src/scoring/ordering.ts),
    so a job that only watched moves no date. After a moment (a job started at the very end gets to
    exec) a tracer still tracing goes on, and its file is kept as late.<exec dir> beside the exec
    dirs (root's only), where the host reads it once the turns are over (late_traces.py). Returns
    the size of the trace up to now: what this command's report carries.
    """
    trace_file = "%s/s" % d
    path = trace_file.encode()
    tracers = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % p, "rb") as f:
                # The options come first; the traced command (the agent's, maybe huge) after them.
                argv = f.read(1 << 16).split(b"\0")
        except OSError:
            continue
        if os.path.basename(argv[0]) == b"strace" and path in argv and argv[argv.index(path) - 1] == b"-o" and is_root(p):
            tracers.append(p)
    if tracers:
        until = time.monotonic() + 0.02
        while time.monotonic() < until and alive(tracers):
            time.sleep(0.001)
    size = os.stat(trace_file).st_size
    if tracers and alive(tracers):
        try:
            os.link(trace_file, "%s/late.%s" % (EXEC_DIR, os.path.basename(d)))
        except OSError:
            pass  # the host finds no late trace: it dates by the command's turn, as for an untraced job
    return size


def survivors(uid):
    """
    Pids of `uid`'s processes still running now that its command is over (zombies are dead): its
    background jobs, or an earlier command's. Causality dates changes by them (src/scoring/
    ordering.ts). A child still on its way out (a runner's helper process) gets a moment to go.
    A job this command started that is stopped although its tracer lives on no more (a child forked
    as a cut trace's tracer died keeps the stop of its automatic attach) is continued: the command
    did not stop it.
    """
    mine = start_time("self")
    found = []
    for _ in range(6):
        found = [p for p in os.listdir("/proc") if p.isdigit() and owned_live(p, uid)]
        for p in found:
            if state_of(p) == b"T" and start_time(p) >= mine:
                try:
                    os.kill(int(p), SIGCONT)
                except OSError:
                    pass
        if not found:
            break
        time.sleep(0.03)
    return sorted(found, key=int)


def start_time(pid):
    """When the process started (clock ticks since boot), or 0 when it is gone."""
    try:
        with open("/proc/%s/stat" % pid, "rb") as f:
            return int(f.read().rsplit(b")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return 0


def state_of(pid):
    try:
        with open("/proc/%s/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def owned_live(pid, uid):
    """The process's real uid is `uid` and it is not a zombie."""
    try:
        with open("/proc/%s/status" % pid, "rb") as f:
            state = uid_ok = None
            for line in f:
                if line.startswith(b"State:"):
                    state = line.split()[1]
                elif line.startswith(b"Uid:"):
                    uid_ok = line.split()[1] == str(uid).encode()
                    break
            return bool(uid_ok) and state not in (b"Z", b"X")
    except OSError:
        return False


def is_root(pid):
    """Real uid 0 (a process's /proc owner is root too when it is not dumpable: not proof)."""
    try:
        with open("/proc/%s/status" % pid, "rb") as f:
            for line in f:
                if line.startswith(b"Uid:"):
                    return line.split()[1] == b"0"
    except OSError:
        pass
    return False


def alive(pids):
    out = []
    for p in pids:
        try:
            os.stat("/proc/" + p)
            out.append(p)
        except OSError:
            pass
    return out


def read_head(path, limit):
    """At most `limit` bytes from the start of a file, b"" if it is missing."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except FileNotFoundError:
        return b""
    try:
        return pread_all(fd, limit, 0)
    finally:
        os.close(fd)


def capped(path, size, head, tail):
    """Exactly the first `size` bytes as measured, or their head and tail, even if a background job still appends."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        if size <= head + tail:
            return pread_all(fd, size, 0)
        return pread_all(fd, head, 0) + pread_all(fd, tail, size - tail)
    finally:
        os.close(fd)


def pread_all(fd, n, offset):
    chunks = []
    while n > 0:
        chunk = os.pread(fd, min(n, 1 << 20), offset)
        if not chunk:
            break
        chunks.append(chunk)
        n -= len(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def cleanup(d):
    try:
        for name in os.listdir(d):
            os.unlink("%s/%s" % (d, name))
        os.rmdir(d)
    except OSError:
        pass  # the next reset wipes the directory
