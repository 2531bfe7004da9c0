/**
 * stageForChecks: a copy of /workspace the checker can read and run but not change. Root writes
 * it (so root owns it, no CHOWN needed) with fixed modes, whatever the agent set: a file the agent
 * chmod 000'd is copied like any other (root reads it thanks to DAC_OVERRIDE). Like the snapshot
 * (snapshot.ts), an isolated Python from the read-only image walks with O_NOFOLLOW relative to
 * each parent's descriptor: a symlink is copied as a link, never followed, even one swapped in
 * mid-walk. FIFOs, sockets and devices are left out: they hold no content a check could use.
 */
import { InfraError } from '../../util/errors.js';
import { tool } from '../tools.js';
import { CHECKS_DIR, WORKSPACE_DIR } from '../types.js';
import type { RawRunner } from './raw-runner.js';

const STAGE_PY = `
import os, stat, sys, tempfile
src_root, parent = sys.argv[1], sys.argv[2]
# The checker must never reach the live workspace; the agent owns it and may have opened its mode.
os.chmod(src_root, 0o750)
os.umask(0o022)
dest_root = tempfile.mkdtemp(prefix="ws-", dir=parent)
os.chmod(dest_root, 0o755)
DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
def open_dir(root, rel):
    fd = os.open(root, DIR)
    for part in rel.split("/") if rel else []:
        try:
            child = os.open(part, DIR, dir_fd=fd)
        finally:
            os.close(fd)
        fd = child
    return fd
def copy_file(name, sfd, dfd, st):
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=sfd)
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode) or fst.st_ino != st.st_ino:
            return
        mode = 0o755 if fst.st_mode & stat.S_IXUSR else 0o644
        out = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dfd)
        try:
            while True:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                os.write(out, chunk)
            os.fchmod(out, mode)
            os.utime(out, ns=(fst.st_atime_ns, fst.st_mtime_ns))
        finally:
            os.close(out)
    finally:
        os.close(fd)
stack = [""]
while stack:
    rel = stack.pop()
    try:
        sfd = open_dir(src_root, rel)
    except OSError:
        continue  # removed or replaced by a link since it was listed
    dfd = open_dir(dest_root, rel)
    try:
        with os.scandir(sfd) as it:
            entries = list(it)
        for e in entries:
            try:
                st = e.stat(follow_symlinks=False)
                if stat.S_ISLNK(st.st_mode):
                    os.symlink(os.readlink(e.name, dir_fd=sfd), e.name, dir_fd=dfd)
                elif stat.S_ISDIR(st.st_mode):
                    os.mkdir(e.name, 0o755, dir_fd=dfd)
                    os.chmod(e.name, 0o755, dir_fd=dfd)
                    stack.append(rel + "/" + e.name if rel else e.name)
                elif stat.S_ISREG(st.st_mode):
                    copy_file(e.name, sfd, dfd, st)
            except FileNotFoundError:
                continue
    finally:
        os.close(sfd)
        os.close(dfd)
print(dest_root)
`;

/** Copies /workspace into a fresh directory under CHECKS_DIR; returns its path. */
export async function stageWorkspace(run: RawRunner): Promise<string> {
  const r = await run({
    argv: [tool('python3'), '-I', '-S', '-c', STAGE_PY, WORKSPACE_DIR, CHECKS_DIR],
    user: 'root',
    maxStdoutBytes: 4096,
    maxStderrBytes: 16 * 1024,
    deadlineMs: 120_000,
  });
  const path = r.stdout.toString('utf8').trim();
  if (r.exitCode !== 0 || !path.startsWith(`${CHECKS_DIR}/`)) {
    const why = r.stderr.toString('utf8').trim().split('\n').slice(-1)[0];
    throw new InfraError(`staging the workspace for checks failed: ${why || `exit ${r.exitCode}`}`);
  }
  return path;
}
