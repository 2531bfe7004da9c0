/**
 * The verifier's supervisor: the one process the host starts in the verifier's container (as root,
 * the tools bundle's python3, read-only). It runs tests/test.sh as its only child and watches
 * its process tree from outside it:
 *  - it is a child subreaper (PR_SET_CHILD_SUBREAPER), so every process of the tree whose parent
 *    ends before it (a double-forked daemon) becomes its child, and is seen when it ends;
 *  - it is not dumpable, so root in the tree, without CAP_SYS_PTRACE, cannot open its descriptors
 *    or memory (/proc/<pid>/fd, mem, environ): the report on its stdout cannot be forged, and the
 *    nonce it must carry (given on stdin) cannot be read. The tree gets /dev/null as stdin and a
 *    log file as stdout and stderr, never the exec's pipes;
 *  - when test.sh's main process ends, or its time is up, it notes every process still there,
 *    kills them all (kill(-1): one pass the kernel makes atomic against fork, sparing only the
 *    keeper, which is pid 1, and itself), reaps them until none is left, and only then reads
 *    reward.txt and reward.json (regular files only, opened non-blocking: a FIFO there cannot
 *    hang it) and prints its report as one line.
 * Killing or stopping it is possible (same uid) but shows: no report, or none before the host's
 * deadline (verifier.ts).
 */
import { z } from 'zod';
import { tool, VERIFIER_BIN } from '../tools.js';

const SCRIPT = String.raw`
import base64, ctypes, json, os, signal, stat, sys, time
nonce = sys.stdin.readline().strip()
workdir, limit, log, bash, standins = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
libc = ctypes.CDLL(None, use_errno=True)
if libc.prctl(4, 0, 0, 0, 0) != 0 or libc.prctl(36, 1, 0, 0, 0) != 0:
    sys.exit('agent-bench verifier: prctl failed')
me = os.getpid()
logs = os.path.realpath('/logs')
os.makedirs(logs + '/verifier', exist_ok=True)
os.makedirs(logs + '/agent', exist_ok=True)
out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
main = os.fork()
if main == 0:
    try:
        null = os.open('/dev/null', os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        for s in (signal.SIGPIPE, signal.SIGXFSZ):
            signal.signal(s, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        os.chdir(workdir)
        # The offline stand-ins come last: a tool the image has wins.
        path = os.environ.get('PATH', '')
        os.environ['PATH'] = (path + ':' if path else '') + standins
        os.execv(bash, ['bash', '/tests/test.sh'])
    except BaseException as e:
        os.write(2, ('agent-bench verifier: cannot start tests/test.sh: %s\n' % e).encode())
    os._exit(127)
os.close(out)
sys.stdout.write('agent-bench-verifier-started %s\n' % nonce)
sys.stdout.flush()

def name(pid):
    try:
        with open('/proc/%d/comm' % pid, 'rb') as f:
            return '%s[%d]' % (f.read().decode('utf-8', 'replace').strip()[:40], pid)
    except OSError:
        return '[%d]' % pid

status, detached = None, []

def reap(counting):
    global status
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if info is None:
            return
        pid = info.si_pid
        who = name(pid)
        os.waitpid(pid, 0)
        if pid == main:
            status = info
        elif counting:
            detached.append(who)

def others():
    found = []
    for e in os.listdir('/proc'):
        if not e.isdigit() or int(e) in (1, me):
            continue
        try:
            with open('/proc/%s/stat' % e, 'rb') as f:
                state = f.read().rsplit(b')', 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in (b'Z', b'X'):
            found.append(name(int(e)))
    return found

deadline = time.monotonic() + limit
while status is None:
    left = deadline - time.monotonic()
    if left <= 0:
        break
    signal.sigtimedwait({signal.SIGCHLD}, min(left, 1.0))
    reap(True)
timed_out = status is None
outlived = [] if timed_out else others()
unkilled = []
for _ in range(200):
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    reap(False)
    unkilled = others()
    if not unkilled:
        break
    time.sleep(0.025)

def grab(path, cap=65536):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return {'regular': False, 'data': '', 'cut': False}
        data = os.read(fd, cap + 1)
        return {'regular': True, 'data': base64.b64encode(data[:cap]).decode(), 'cut': len(data) > cap}
    finally:
        os.close(fd)

def tail(path, cap=4096):
    try:
        with open(path, 'rb') as f:
            f.seek(0, 2)
            f.seek(max(0, f.tell() - cap))
            return f.read().decode('utf-8', 'replace')
    except OSError:
        return ''

code = sig = None
if status is not None:
    if status.si_code == os.CLD_EXITED:
        code = status.si_status
    else:
        sig = status.si_status
report = {
    'exitCode': code, 'signal': sig, 'timedOut': timed_out, 'detached': detached,
    'outlived': outlived, 'unkilled': unkilled,
    'rewardTxt': grab('/logs/verifier/reward.txt'), 'rewardJson': grab('/logs/verifier/reward.json'),
    'output': tail(log),
}
sys.stdout.write('agent-bench-verifier %s %s\n' % (nonce, base64.b64encode(json.dumps(report).encode()).decode()))
`;

/** Where test.sh's stdout and stderr go: the sandbox's root-only exec tmpfs. */
const LOG = '/run/agent-bench/verifier.log';

/**
 * The supervisor's argv: test.sh run in `workdir` by the bundle's bash (the image need have none),
 * killed past `limitSec`, with the offline stand-ins (sandbox/verifier-bin/) at the end of its PATH.
 */
export function supervisorArgv(workdir: string, limitSec: number): string[] {
  const args = [workdir, String(limitSec), LOG, tool('bash'), VERIFIER_BIN];
  return [tool('python3'), '-I', '-S', '-c', SCRIPT, ...args];
}

const rewardFile = z.object({ regular: z.boolean(), data: z.string(), cut: z.boolean() }).nullable();

const reportSchema = z.object({
  exitCode: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  timedOut: z.boolean(),
  /** Processes that left test.sh's tree while it ran (reaped by the supervisor, not by a parent of the tree). */
  detached: z.array(z.string()),
  /** Processes still there when test.sh's main process ended. */
  outlived: z.array(z.string()),
  /** Processes still there after the supervisor's kills. */
  unkilled: z.array(z.string()),
  rewardTxt: rewardFile,
  rewardJson: rewardFile,
  /** The tail of test.sh's output. */
  output: z.string(),
});

export type SupervisorReport = z.infer<typeof reportSchema>;
export type RewardFile = NonNullable<SupervisorReport['rewardTxt']>;

/** Whether the supervisor said it started test.sh (up to there nothing of the agent's ran). */
export function startedTests(stdout: Buffer, nonce: string): boolean {
  return stdout.toString('latin1').split('\n').includes(`agent-bench-verifier-started ${nonce}`);
}

/** The report carrying `nonce` in the supervisor's stdout, or null (none, or not well formed). */
export function parseReport(stdout: Buffer, nonce: string): SupervisorReport | null {
  const prefix = `agent-bench-verifier ${nonce} `;
  const line = stdout
    .toString('latin1')
    .split('\n')
    .find((l) => l.startsWith(prefix));
  if (line === undefined) return null;
  try {
    const json: unknown = JSON.parse(Buffer.from(line.slice(prefix.length), 'base64').toString('utf8'));
    const parsed = reportSchema.safeParse(json);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
