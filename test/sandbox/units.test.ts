/** Pure parts of the Docker sandbox: framing, caps, parsing, paths, orphan rules. No engine needed. */
import { hostname } from 'node:os';
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { EngineStalled, withDeadline } from '../../src/sandbox/docker/deadline.js';
import { ByteCollector, FrameDemuxer } from '../../src/sandbox/docker/demux.js';
import { withCutMarker } from '../../src/sandbox/docker/exec.js';
import { completeUtf8Length } from '../../src/sandbox/docker/files.js';
import { LABEL } from '../../src/sandbox/docker/labels.js';
import { ancestors, resolvePath } from '../../src/sandbox/docker/paths.js';
import { killAgentProcesses, killAllProcesses } from '../../src/sandbox/docker/processes.js';
import { ContainerGoneError, type RawExecResult } from '../../src/sandbox/docker/raw-exec.js';
import { ExecStartFailed, type RawTarget, runRaw } from '../../src/sandbox/docker/raw-runner.js';
import { ExecStalled, stallError } from '../../src/sandbox/docker/stall.js';
import { isOrphan } from '../../src/sandbox/docker/sweep.js';
import { parseWrapperOutput } from '../../src/sandbox/docker/wrapper.js';
import { hashInputs, type InputFile, imageTag } from '../../src/sandbox/image/inputs.js';

const frame = (type: number, payload: string): Buffer => {
  const body = Buffer.from(payload);
  const header = Buffer.alloc(8);
  header[0] = type;
  header.writeUInt32BE(body.length, 4);
  return Buffer.concat([header, body]);
};

describe('FrameDemuxer', () => {
  it('splits stdout and stderr frames even when headers arrive in pieces', () => {
    const got: string[] = [];
    const demux = new FrameDemuxer((stream, payload) => got.push(`${stream}:${payload.toString()}`));
    const wire = Buffer.concat([frame(1, 'hello '), frame(2, 'oops'), frame(1, 'world')]);
    for (let i = 0; i < wire.length; i += 3) demux.push(wire.subarray(i, i + 3));
    expect(got).toEqual(['stdout:hello ', 'stderr:oops', 'stdout:world']);
    expect(demux.leftover).toBe(0);
  });

  it('rejects a stream that is not multiplexed instead of passing it through', () => {
    const demux = new FrameDemuxer(() => {});
    expect(() => demux.push(Buffer.from('plain text, no frames'))).toThrow(/bad frame header/);
  });
});

describe('ByteCollector', () => {
  it('keeps the first `limit` bytes and counts the rest', () => {
    const c = new ByteCollector(5);
    c.add(Buffer.from('abc'));
    c.add(Buffer.from('defg'));
    c.add(Buffer.from('hij'));
    expect(c.bytes().toString()).toBe('abcde');
    expect(c.dropped).toBe(5);
  });
});

describe('wrapper protocol', () => {
  it('parses the header and the decoded working directory', () => {
    const cwd = Buffer.from('/workspace/a b\n').toString('base64');
    const parsed = parseWrapperOutput(Buffer.from(`agent-bench-exec 3 0 5 0 ${cwd} 0 - 0 - -\nhello`));
    expect(parsed?.header).toEqual({
      exitCode: 3,
      timedOut: false,
      stdoutSize: 5,
      stderrSize: 0,
      cwd: '/workspace/a b',
      outputFull: false,
      traceSize: null,
      traceCut: false,
      snapshotSize: null,
      aliveAfter: null,
    });
    expect(parsed?.trace).toBeNull();
    expect(parsed?.snapshot).toBeNull();
    expect(parsed?.body.toString()).toBe('hello');
  });

  it('takes the trace from before the stdout, byte-exact', () => {
    const parsed = parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 3 0 - 0 6 1 - -\n1 x()\nout'));
    expect(parsed?.header).toMatchObject({ traceSize: 6, traceCut: true, snapshotSize: null });
    expect(parsed?.trace?.toString()).toBe('1 x()\n');
    expect(parsed?.body.toString()).toBe('out');
    // Fewer trace bytes than announced: the stream was cut, nothing in it can be trusted.
    expect(parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 0 0 - 0 60 0 - -\n1 x()\n'))).toBeNull();
  });

  it('takes the snapshot from between the trace and the stdout, byte-exact', () => {
    const snap = 'delta a b 3\nf\0agent-bench-exec 0\0';
    const parsed = parseWrapperOutput(
      Buffer.from(`agent-bench-exec 0 0 3 0 - 0 6 0 ${Buffer.byteLength(snap)} none\n1 x()\n${snap}out`),
    );
    expect(parsed?.trace?.toString()).toBe('1 x()\n');
    expect(parsed?.snapshot?.toString()).toBe(snap);
    expect(parsed?.body.toString()).toBe('out');
    const untraced = parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 3 0 - 0 - 0 5 12,345\nfull-out'));
    expect([untraced?.trace, untraced?.snapshot?.toString(), untraced?.body.toString()]).toEqual([
      null,
      'full-',
      'out',
    ]);
    // The agent's survivors: none, some, or not looked at.
    expect(parsed?.header.aliveAfter).toEqual([]);
    expect(untraced?.header.aliveAfter).toEqual([12, 345]);
    expect(
      parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 0 0 - 0 - 0 - -\n'))?.header.aliveAfter,
    ).toBeNull();
    // A snapshot cut short: the stream was cut.
    expect(parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 0 0 - 0 6 0 40 -\n1 x()\nfull'))).toBeNull();
  });

  it('refuses output without a header, an old header, and a relative cwd', () => {
    expect(parseWrapperOutput(Buffer.from('OCI runtime exec failed\n'))).toBeNull();
    expect(parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 0 0 - 0\n'))).toBeNull();
    expect(parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 0 0 - 0 - 0\n'))).toBeNull();
    expect(parseWrapperOutput(Buffer.from('agent-bench-exec 0 0 0 0 - 0 - 0 -\n'))).toBeNull();
    const rel = Buffer.from('tmp').toString('base64');
    expect(
      parseWrapperOutput(Buffer.from(`agent-bench-exec 0 1 0 0 ${rel} 0 - 0 - -\n`))?.header.cwd,
    ).toBeNull();
  });

  it('marks the cut between head and tail with the number of bytes cut', () => {
    const r = withCutMarker(Buffer.from('HEADtail'), 108, 4);
    expect(r.cut).toBe(100);
    expect(r.text).toBe('HEAD\n[... 100 bytes cut from the middle of this output ...]\ntail');
    expect(withCutMarker(Buffer.from('all'), 3, 2)).toEqual({ text: 'all', cut: 0 });
  });
});

describe('completeUtf8Length', () => {
  it('stops before a character the limit split', () => {
    const euro = Buffer.from('a€', 'utf8'); // 61 e2 82 ac
    expect(completeUtf8Length(euro.subarray(0, 3))).toBe(1);
    expect(completeUtf8Length(euro.subarray(0, 2))).toBe(1);
    expect(completeUtf8Length(euro)).toBe(4);
    expect(completeUtf8Length(Buffer.from('plain'))).toBe(5);
  });
});

describe('paths', () => {
  it('resolves relative paths against the given directory and normalises', () => {
    expect(resolvePath('x/../y.txt', '/workspace/sub')).toBe('/workspace/sub/y.txt');
    expect(resolvePath('/etc//passwd/')).toBe('/etc/passwd');
    expect(resolvePath('../../..', '/workspace')).toBe('/');
    expect(() => resolvePath('a\0b')).toThrow(/NUL/);
    expect(ancestors('/harness/hidden/t.py')).toEqual(['/harness', '/harness/hidden']);
  });
});

describe('isOrphan', () => {
  const labels = (pid: number, host: string, created: Date): Record<string, string> => ({
    [LABEL.pid]: String(pid),
    [LABEL.host]: host,
    [LABEL.created]: created.toISOString(),
  });
  const day = 24 * 3_600_000;

  it('keeps a container whose creator still runs here, and sweeps it past the age limit', () => {
    expect(isOrphan(labels(process.pid, hostname(), new Date()), day)).toBe(false);
    expect(isOrphan(labels(process.pid, hostname(), new Date(Date.now() - 2 * day)), day)).toBe(true);
  });

  it('sweeps a container whose creator is gone, but trusts no pid from another host', () => {
    const deadPid = 2 ** 22 + 12345; // above pid_max: no such process
    expect(isOrphan(labels(deadPid, hostname(), new Date()), day)).toBe(true);
    expect(isOrphan(labels(deadPid, 'some-other-host', new Date()), day)).toBe(false);
  });
});

describe('image inputs', () => {
  const files: InputFile[] = [
    { path: 'Dockerfile', content: Buffer.from('FROM x\n'), mode: 0o644 },
    { path: 'sandbox/packages.txt', content: Buffer.from('bash\n'), mode: 0o644 },
  ];

  it('names the image by its inputs: content and executable bit both count', () => {
    const tag = imageTag(files);
    expect(tag).toMatch(/^agent-bench-sandbox:[0-9a-f]{16}$/);
    const edited = files.map((f) =>
      f.path === 'Dockerfile' ? { ...f, content: Buffer.from('FROM y\n') } : f,
    );
    expect(imageTag(edited)).not.toBe(tag);
    const chmodded = files.map((f) => ({ ...f, mode: 0o755 }));
    expect(hashInputs(chmodded)).not.toBe(hashInputs(files));
  });
});

const OK: RawExecResult = {
  exitCode: 0,
  stdout: Buffer.alloc(0),
  stderr: Buffer.alloc(0),
  stdoutDropped: 0,
  stderrDropped: 0,
  deadlineHit: false,
  elapsedMs: 1,
};

describe('killAgentProcesses when no pid is free', () => {
  // On this engine (runc 1.1, cgroup v1) exec processes join the cgroup past pids.max, so the
  // fallback never runs in the integration tests; runtimes that clone into the cgroup need it.
  it('lends the container pids for the kill and takes them back', async () => {
    const updates: unknown[] = [];
    const container = {
      update: async ({ PidsLimit }: { PidsLimit: number }) => void updates.push(PidsLimit),
    } as unknown as Docker.Container;
    const calls: string[] = [];
    const run = async (req: { user: string }): Promise<RawExecResult> => {
      calls.push(req.user);
      if (calls.length === 1)
        throw new ExecStartFailed('OCI runtime exec failed: resource temporarily unavailable');
      return OK;
    };
    await killAgentProcesses(container, run, 100);
    expect(updates).toEqual([164, 100]);
    expect(calls).toEqual(['root', 'root']);
  });
});

describe('killAllProcesses', () => {
  it("kills the agent's and the checker's processes from root, then the rest, in one exec", async () => {
    const calls: string[][] = [];
    const run = async (req: { user: string; argv: string[] }): Promise<RawExecResult> => {
      calls.push([req.user, ...req.argv.slice(4)]);
      return OK;
    };
    await killAllProcesses({} as Docker.Container, run, 100);
    // No exec as a user the agent (or its code, run as the checker) can signal.
    expect(calls).toEqual([['root', '1000', '1001']]);
  });

  it('says which processes survive', async () => {
    const run = async (): Promise<RawExecResult> => ({
      ...OK,
      exitCode: 1,
      stderr: Buffer.from('processes survive: 42\n'),
    });
    await expect(killAgentProcesses({} as Docker.Container, run, 100)).rejects.toThrow(
      /could not kill the processes of uid 1000: processes survive: 42/,
    );
  });
});

describe('withDeadline', () => {
  it('passes an answer through, and past the deadline aborts the call and says what got no answer', async () => {
    expect(await withDeadline(async () => 7, 1_000, 'quick')).toBe(7);
    let aborted = false;
    const never = withDeadline(
      (signal) =>
        new Promise<never>((_, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
      50,
      'inspecting a container',
    );
    await expect(never).rejects.toThrow(EngineStalled);
    await expect(never).rejects.toThrow(/inspecting a container got no answer within 0 s/);
    expect(aborted).toBe(true);
  });
});

/** A container whose inspect says `running`, and a client whose ping answers when `pings`. */
function engine(running: boolean, pings: boolean): { container: Docker.Container; client: Docker } {
  const container = {
    id: 'c0ffee0000000000',
    inspect: async () => ({
      State: {
        Running: running,
        Paused: false,
        Status: running ? 'running' : 'exited',
        ExitCode: 137,
        OOMKilled: false,
      },
    }),
  } as unknown as Docker.Container;
  const client = {
    ping: ({ abortSignal }: { abortSignal: AbortSignal }) =>
      pings
        ? Promise.resolve('OK')
        : new Promise((_, reject) => abortSignal.addEventListener('abort', reject)),
  } as unknown as Docker;
  return { container, client };
}

describe('stallError', () => {
  it('names whose exec stalled, and whether the engine still answers', async () => {
    const fine = engine(true, true);
    const err = await stallError(fine.client, fine.container, 'checker', 'the sandbox did not finish `x`');
    expect(err).toBeInstanceOf(ExecStalled);
    expect(err).toMatchObject({ user: 'checker', engineAnswered: true });
    const silent = engine(true, false);
    const quiet = await stallError(silent.client, silent.container, 'agent', 'x');
    expect(quiet).toMatchObject({ user: 'agent', engineAnswered: false });
    expect(quiet.message).toMatch(/engine does not answer/);
  }, 20_000);

  it('is a ContainerGoneError when the container stopped', async () => {
    const stopped = engine(false, true);
    const err = await stallError(stopped.client, stopped.container, 'agent', 'x');
    expect(err).toBeInstanceOf(ContainerGoneError);
    expect(err).not.toBeInstanceOf(ExecStalled);
  });
});

describe('runRaw', () => {
  const target = (stalls: string[]): RawTarget => ({
    container: { id: 'c0ffee0000000000' } as unknown as Docker.Container,
    taint: () => {},
    stalled: async (user, what) => {
      stalls.push(`${user}: ${what}`);
      return new ExecStalled(what, user, true);
    },
  });
  const late = async (): Promise<RawExecResult> => ({ ...OK, exitCode: null, deadlineHit: true });

  it('throws what the target makes of a missed deadline, naming whose work the exec did', async () => {
    const stalls: string[] = [];
    const req = { argv: ['python3'], user: 'root' as const, maxStdoutBytes: 1, maxStderrBytes: 1 };
    await expect(
      runRaw(target(stalls), { ...req, actingFor: 'agent', deadlineMs: 2_000 }, late),
    ).rejects.toThrow(ExecStalled);
    await expect(runRaw(target(stalls), req, late)).rejects.toMatchObject({ user: 'root' });
    expect(stalls).toEqual([
      'agent: the sandbox did not finish `python3` within 2 s',
      'root: the sandbox did not finish `python3` within 60 s',
    ]);
  });
});
