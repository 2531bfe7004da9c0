/**
 * What really ran: every agent command is traced inside the sandbox, out of the agent's reach.
 * Proven on real commands, and by an agent command that tries to find, read, fake and stop the
 * trace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import type { CommandResult, ProcessRecord } from '../../src/sandbox/types.js';
import { asRoot, IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sb: DockerSandbox;

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

function processes(r: CommandResult): ProcessRecord[] {
  expect(r.trace, 'the command was traced').toBeDefined();
  return r.trace?.processes ?? [];
}

const ran = (r: CommandResult, argv0: string): ProcessRecord[] =>
  processes(r).filter((p) => p.argv?.[0] === argv0);

describe.sequential('tracing agent commands', () => {
  it('is on, and starts each trace with the command shell', async () => {
    expect(sb.tracing).toBe(true);
    const r = await sb.runCommand('true', 10_000);
    expect(processes(r)).toHaveLength(1);
    expect(processes(r)[0]).toMatchObject({ parentPid: null, exe: '/opt/agent-bench/bin/bash', exitCode: 0 });
    expect(processes(r)[0]?.argv?.at(-1)).toBe('true');
    expect(r.trace?.truncated).toBe(false);
  });

  it('records `cat a.py | wc -c`: cat reads a.py, wc runs', async () => {
    await sb.writeFile('a.py', 'print(1)\n');
    const r = await sb.runCommand('cat a.py | wc -c', 10_000);
    expect(r.stdout).toBe('9\n');
    const [cat] = ran(r, 'cat');
    expect(cat).toMatchObject({ exe: '/usr/bin/cat', argv: ['cat', 'a.py'], cwd: '/workspace', exitCode: 0 });
    expect(cat?.opens).toContainEqual({ path: '/workspace/a.py', write: false });
    expect(ran(r, 'wc')).toMatchObject([{ argv: ['wc', '-c'], exitCode: 0 }]);
  });

  it('records pytest run from a subdirectory with its cwd and argv', async () => {
    await sb.writeFile('sub/test_a.py', 'def test_x():\n    assert 1\n');
    const r = await sb.runCommand('cd sub && python3 -m pytest -q 2>&1 | tail -5', 30_000);
    expect(r.stdout).toMatch(/1 passed/);
    const [py] = ran(r, 'python3');
    expect(py).toMatchObject({ argv: ['python3', '-m', 'pytest', '-q'], cwd: '/workspace/sub', exitCode: 0 });
    expect(py?.opens).toContainEqual({ path: '/workspace/sub/test_a.py', write: false });
    await sb.runCommand('cd /workspace', 10_000);
  });

  it('has no record for a command that does not exist', async () => {
    const r = await sb.runCommand('pytset -q; echo $?', 10_000);
    expect(r.stdout).toBe('127\n');
    expect(processes(r)).toHaveLength(1);
    expect(processes(r).some((p) => p.exe?.includes('pytset'))).toBe(false);
  });

  it('records exit codes and the signals that killed processes', async () => {
    const r = await sb.runCommand(
      "sleep 5 & sleep 0.3; kill -9 $!; python3 -c 'import os; os.kill(os.getpid(), 15)'; ls /nonexistent; exit 3",
      10_000,
    );
    expect(r.exitCode).toBe(3);
    expect(processes(r)[0]).toMatchObject({ exitCode: 3, signal: null });
    expect(ran(r, 'sleep').find((p) => p.argv?.[1] === '5')).toMatchObject({
      exitCode: null,
      signal: 'SIGKILL',
    });
    expect(ran(r, 'python3')).toMatchObject([{ exitCode: null, signal: 'SIGTERM' }]);
    expect(ran(r, 'ls')).toMatchObject([{ exitCode: 2, signal: null }]);
  });

  it('records a background process, returns at once, and leaves it running, still followed by its tracer', async () => {
    const r = await sb.runCommand('sleep 300 & echo started', 10_000);
    expect(r.elapsedMs).toBeLessThan(1_000);
    const [job] = ran(r, 'sleep');
    expect(job).toMatchObject({ argv: ['sleep', '300'], exitCode: null, signal: null });
    // Running (not stopped), and traced on: what it does next dates the changes it makes.
    const status = await asRoot(sb, `grep -E '^(State|TracerPid)' /proc/${job?.pid}/status`);
    expect(status.stdout).toMatch(/State:\s+S[\s\S]*TracerPid:\s+[1-9]\d*\n$/);
    await sb.killAgentProcesses();
    const [followed] = await sb.followedTraces();
    expect(followed?.processes.map((p) => p.pid)).toContain(job?.pid);
  });

  it('records what a timeout killed', async () => {
    const r = await sb.runCommand('sleep 50 & sleep 40', 1_000);
    expect(r.timedOut).toBe(true);
    expect(processes(r).map((p) => p.signal)).toEqual(['SIGKILL', 'SIGKILL', 'SIGKILL']);
  });

  it('cuts a trace past its cap, says so, and lets the command finish untraced', async () => {
    const r = await sb.runCommand(
      'python3 -c \'import os\nfor i in range(300000): os.close(os.open("/dev/null", os.O_RDONLY))\nprint("done")\'; echo after',
      120_000,
    );
    expect(r).toMatchObject({ exitCode: 0, stdout: 'done\nafter\n' });
    expect(r.trace?.truncated).toBe(true);
    expect(ran(r, 'python3')).toHaveLength(1);
  }, 150_000);
});

describe.sequential('the trace is out of the agent’s reach', () => {
  it('cannot be found, read, stopped or faked from an agent command', async () => {
    const fake = 'FAKEPROGRAM';
    const r = await sb.runCommand(
      [
        'ls /run/agent-bench',
        'find / -xdev -newer /proc/1 -name s -type f 2>/dev/null | head -3',
        'for t in $(pgrep -x strace); do cat /proc/$t/fd/* ; ls -l /proc/$t/fd; kill -9 $t; done',
        // Every descriptor and file it can reach gets a forged trace line.
        `line='1 execve("/usr/bin/${fake}", ["${fake}"], 0x1 /* 0 vars */) = 0'`,
        'for f in /proc/[0-9]*/fd/* /run/agent-bench/*/s; do echo "$line" >> "$f"; done 2>/dev/null',
        'echo probe done',
      ].join('\n'),
      30_000,
    );
    expect(r.stdout).toMatch(/probe done\n$/);
    expect(r.stdout).not.toMatch(/execve\(/);
    expect(r.stderr).toMatch(/ls: cannot open directory '\/run\/agent-bench': Permission denied/);
    expect(r.stderr).toMatch(/Operation not permitted|Permission denied/);
    // The tracer survived to the end: the last program of the command is in the trace.
    expect(processes(r).some((p) => p.argv?.[0] === 'pgrep')).toBe(true);
    expect(processes(r).some((p) => p.exe?.includes(fake))).toBe(false);
  });
});

describe.sequential('harness execs', () => {
  it('are not traced unless asked, as root or as the checker', async () => {
    expect((await sb.exec(['true'], { user: 'root' })).trace).toBeUndefined();
    const root = await sb.exec(['bash', '-c', 'cat /etc/hostname'], { user: 'root', trace: true });
    expect(root.trace?.processes[0]).toMatchObject({
      exe: '/usr/bin/cat',
      argv: ['cat', '/etc/hostname'],
      cwd: '/workspace',
    });
    const checker = await sb.exec(['python3', '-c', 'print(1)'], {
      user: 'checker',
      cwd: '/tmp',
      trace: true,
    });
    expect(checker.trace?.processes).toMatchObject([{ exe: '/usr/bin/python3', cwd: '/tmp', exitCode: 0 }]);
  });
});

describe.sequential('a sandbox with tracing off', () => {
  it('runs commands untraced and says so', async () => {
    const plain = await openSandbox({ trace: false });
    try {
      expect(plain.tracing).toBe(false);
      expect(plain.tracingUnavailable).toBeNull();
      const r = await plain.runCommand('echo hi', 10_000);
      expect(r).toMatchObject({ exitCode: 0, stdout: 'hi\n' });
      expect(r.trace).toBeUndefined();
    } finally {
      await plain.dispose();
    }
  });
});
