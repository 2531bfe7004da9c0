# agent-bench file tools: the agent's read_file and write_file, and the harness's copies of files
# owned by the agent or the checker (host side: src/sandbox/docker/files.ts and transfer.ts).
#
# They run in a root process (a thread of the exec relay, sandbox/relay/exec_relay.py, or an
# engine exec of their own as root) whose *filesystem* identity is the user's: no supplementary
# groups, fsgid and fsuid the user's. The kernel then decides every access exactly as for the
# user's own shell (a write to /etc or into a root-owned folder is refused; what it creates is
# the user's), while the real, effective and saved uids stay 0: the user cannot signal the process
# or read its /proc entries, so nothing it runs can stop a file tool half-way. (Changing the fsuid
# away from 0 also drops DAC_OVERRIDE and FOWNER from the effective set.)
#
# The three calls are raw system calls on purpose: they change the calling thread only (glibc's
# setgroups would change every thread of the relay), and the relay serves each request in a fresh
# thread, which ends with it. Nothing here ever opens a FIFO or a device: a path is first opened
# with O_PATH (no open of the file itself), and only a regular file is then opened for real,
# through /proc/self/fd, so the file checked is the file read or written.
#
# Calls (argv after the user's uid), each answering (exit, stdout, stderr) as the shell scripts
# they replace did:
#   read PATH OFFSET LIMIT: stdout is the size in bytes, a newline, then the requested range;
#     exit 2 with a short reason on stderr when it cannot read.
#   write PATH: the bytes on stdin become the file, parent folders created; an existing regular
#     file is written in place (its mode, owner and links kept); a symlink or any other non-folder
#     at the path is replaced, not followed. Exit 1 with the reason on stderr.
#   put: a tar on stdin; its regular files replace what is at their paths, with the tar's modes
#     (as `tar -x --no-same-owner` did).
import errno
import os
import stat
import sys

# setgroups, setfsgid, setfsuid.
SYSCALLS = {"x86_64": (116, 123, 122), "aarch64": (159, 152, 151)}
PROC_FD = "/proc/self/fd/%d"
CHUNK = 1 << 20


class Refused(Exception):
    """The user may not do this: its reason goes to stderr."""


def as_fs_user(uid):
    """Makes the calling thread act on files as `uid` (and its group of the same number)."""
    import ctypes  # here: the snapshot imports this module too, and seldom needs it

    machine = os.uname().machine
    calls = SYSCALLS.get(machine)
    if calls is None:
        raise OSError(errno.ENOSYS, "no file-tool identity switch on %s" % machine)
    setgroups, setfsgid, setfsuid = calls
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(ctypes.c_long(setgroups), ctypes.c_long(0), ctypes.c_void_p(None)) != 0:
        raise OSError(ctypes.get_errno(), "setgroups failed")
    libc.syscall(ctypes.c_long(setfsgid), ctypes.c_long(uid))
    libc.syscall(ctypes.c_long(setfsuid), ctypes.c_long(uid))
    # Both calls answer the previous id; an invalid id (-1) changes nothing and answers the current.
    if libc.syscall(ctypes.c_long(setfsuid), ctypes.c_long(-1)) != uid:
        raise OSError(errno.EPERM, "setfsuid failed")
    if libc.syscall(ctypes.c_long(setfsgid), ctypes.c_long(-1)) != uid:
        raise OSError(errno.EPERM, "setfsgid failed")


def call(uid, args, data):
    """Runs one call as `uid` in this thread: (exit, stdout bytes, stderr bytes)."""
    op = args[0] if args else ""
    try:
        as_fs_user(uid)
        if op == "read" and len(args) == 4:
            return 0, read(args[1], int(args[2]), int(args[3])), b""
        if op == "write" and len(args) == 2:
            write(args[1], data or b"", None, False)
            return 0, b"", b""
        if op == "put" and len(args) == 1:
            put(data or b"")
            return 0, b"", b""
        return 64, b"", b"bad file-tool call\n"
    except Refused as why:
        return 2 if op == "read" else 1, b"", ("%s\n" % why).encode()
    except OSError as err:
        return 1, b"", ("%s\n" % (err.strerror or err)).encode()


def read(path, offset, limit):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except (FileNotFoundError, PermissionError, NotADirectoryError):
        # As `test -e` says from the user's shell: it cannot tell a hidden path from a missing one.
        raise Refused("no such file")
    except OSError as err:
        raise Refused((err.strerror or str(err)).lower())
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise Refused("is a directory")
        if not stat.S_ISREG(mode):
            raise Refused("not a regular file")
        try:
            rfd = os.open(PROC_FD % fd, os.O_RDONLY | os.O_CLOEXEC | os.O_NOCTTY)
        except PermissionError:
            raise Refused("permission denied")
    finally:
        os.close(fd)
    try:
        size = os.fstat(rfd).st_size
        parts = []
        got = 0
        while got < limit:
            chunk = os.pread(rfd, min(CHUNK, limit - got), offset + got)
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        return b"%d\n" % size + b"".join(parts)
    finally:
        os.close(rfd)


def write(path, data, mode, replace):
    """`mode`: a new file's (None: 0644). An existing regular file is written in place (its mode
    kept), or with `replace` unlinked and made anew with `mode`, as tar does."""
    make_parents(os.path.dirname(path))
    fd = None
    try:
        fd = os.open(path, os.O_PATH | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        pass
    if fd is not None:
        try:
            kind = os.fstat(fd).st_mode
            if stat.S_ISDIR(kind):
                raise Refused("Is a directory")
            if stat.S_ISREG(kind) and not replace:
                out = os.open(PROC_FD % fd, os.O_WRONLY | os.O_TRUNC | os.O_CLOEXEC | os.O_NOCTTY)
            else:
                # A symlink, FIFO, socket or device (or a file to replace): as tar replaced it.
                os.unlink(path)
                out = None
        finally:
            os.close(fd)
    else:
        out = None
    if out is None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        out = os.open(path, flags, 0o644 if mode is None else mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(out, view) :]
    finally:
        os.close(out)


def make_parents(folder):
    """`mkdir -p` as the user: each missing folder 0755, existing ones (or links to them) kept."""
    if folder in ("", "/"):
        return
    try:
        if stat.S_ISDIR(os.stat(folder).st_mode):
            return
    except FileNotFoundError:
        pass
    make_parents(os.path.dirname(folder))
    try:
        os.mkdir(folder, 0o755)
    except FileExistsError:
        if not os.path.isdir(folder):
            raise


def put(data):
    import io
    import tarfile

    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tar:
        for member in tar:
            if member.isfile():
                write("/" + member.name.lstrip("/"), tar.extractfile(member).read(), member.mode & 0o7777, True)


def main():
    """An engine exec of its own (no relay): argv is UID CALL..., stdin the call's bytes."""
    uid = int(sys.argv[1])
    args = sys.argv[2:]
    data = sys.stdin.buffer.read() if args and args[0] in ("write", "put") else None
    code, out, err = call(uid, args, data)
    sys.stdout.buffer.write(out)
    sys.stderr.buffer.write(err)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
