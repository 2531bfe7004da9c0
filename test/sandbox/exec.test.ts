/** Commands: demultiplexed output and its cap, timeouts that kill the whole tree, the persistent cwd. */

import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { InfraError } from '../../src/util/errors.js';
import { agentProcesses, asRoot, IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sb: DockerSandbox;

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

describe.sequential('exec', () => {
  it('separates stdout from stderr and reports the exit code and time', async () => {
    const r = await sb.exec(['bash', '-c', 'echo out; echo err >&2; exit 7']);
    expect(r).toMatchObject({
      exitCode: 7,
      stdout: 'out\n',
      stderr: 'err\n',
      timedOut: false,
      stdoutCutBytes: 0,
    });
    expect(r.elapsedMs).toBeGreaterThan(0);
  });

  it('passes argv verbatim (no shell), stdin bytes and environment variables', async () => {
    const argv = await sb.exec(['printf', '%s|', 'a b', '$HOME', "'quoted'", '; rm -rf /']);
    expect(argv.stdout).toBe("a b|$HOME|'quoted'|; rm -rf /|");
    const stdin = Buffer.from([0, 1, 2, 255, 10, 0x41]);
    const cat = await sb.exec(['bash', '-c', 'od -An -tx1 | tr -s " " | tr -d "\\n"'], { stdin });
    expect(cat.stdout.trim()).toBe('00 01 02 ff 0a 41');
    const env = await sb.exec(['bash', '-c', 'echo "$GREETING $USER $HOME"'], { env: { GREETING: 'hi' } });
    expect(env.stdout).toBe('hi agent /tmp\n');
  });

  it("runs in the given directory, entered with the user's own permissions", async () => {
    expect((await sb.exec(['pwd'], { cwd: '/tmp' })).stdout).toBe('/tmp\n');
    expect(await sb.exec(['pwd'], { cwd: '/nope' })).toMatchObject({
      exitCode: 126,
      stderr: 'agent-bench: cannot change directory to /nope\n',
    });
    expect((await sb.exec(['pwd'], { cwd: '/harness' })).exitCode).toBe(126);
    expect((await sb.exec(['pwd'], { cwd: '/harness', user: 'root' })).stdout).toBe('/harness\n');
  });

  it('keeps the head and the tail of long output and says how many bytes it cut', async () => {
    const total = (await sb.exec(['bash', '-c', 'seq 1 200000 | wc -c'])).stdout.trim();
    const r = await sb.exec(['bash', '-c', 'seq 1 200000; seq 1 50000 >&2'], { maxOutputBytes: 1000 });
    expect(r.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.stdout.endsWith('199999\n200000\n')).toBe(true);
    expect(r.stdoutCutBytes).toBe(Number(total) - 1000);
    expect(r.stdout).toContain(`[... ${r.stdoutCutBytes} bytes cut from the middle of this output ...]`);
    expect(r.stderrCutBytes).toBeGreaterThan(0);
    expect(r.stderr.endsWith('50000\n')).toBe(true);
  });

  it('returns as soon as the shell exits, even with a background job holding stdout', async () => {
    const r = await sb.runCommand('sleep 300 & echo spawned', 30_000);
    expect(r.stdout).toBe('spawned\n');
    expect(r.elapsedMs).toBeLessThan(1_000);
    // Not killed to return early: the job is still there until someone kills it.
    expect(await agentProcesses(sb)).toMatch(/sleep 300/);
    await sb.killAgentProcesses();
    expect(await agentProcesses(sb)).toBe('');
  });

  it('kills the whole process tree on timeout and says so', async () => {
    const started = Date.now();
    const r = await sb.runCommand('sleep 200 & sleep 30', 1_000);
    const took = Date.now() - started;
    expect(r.timedOut).toBe(true);
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(3_000);
    expect(await agentProcesses(sb)).toBe('');
    expect(sb.tainted).toBe(false);
  });

  it('times out a harness exec too, keeping what it printed before', async () => {
    const r = await sb.exec(['bash', '-c', 'echo started; sleep 30'], { timeoutMs: 500 });
    expect(r).toMatchObject({ timedOut: true, stdout: 'started\n' });
  });
});

describe.sequential('working directory', () => {
  it('persists across commands and resolves relative file paths', async () => {
    expect(sb.cwd).toBe('/workspace');
    const cd = await sb.runCommand('mkdir -p sub/deeper && cd sub', 10_000);
    expect(cd).toMatchObject({ cwd: '/workspace', cwdAfter: '/workspace/sub' });
    const ls = await sb.runCommand('pwd; ls', 10_000);
    expect(ls.stdout).toBe('/workspace/sub\ndeeper\n');
    expect((await sb.writeFile('note.txt', 'here')).ok).toBe(true);
    expect((await sb.getFiles(['/workspace/sub/note.txt'])).get('/workspace/sub/note.txt')?.toString()).toBe(
      'here',
    );
    const read = await sb.readFile('note.txt');
    expect(read.ok && read.path).toBe('/workspace/sub/note.txt');
  });

  it('stays put when cd fails or the command times out, and follows an explicit exit', async () => {
    const bad = await sb.runCommand('cd /nonexistent', 10_000);
    expect(bad.exitCode).not.toBe(0);
    expect(sb.cwd).toBe('/workspace/sub');
    const slow = await sb.runCommand('cd /tmp && sleep 10', 1_000);
    expect(slow.timedOut).toBe(true);
    expect(slow.cwdAfter).toBe('/workspace/sub');
    expect(sb.cwd).toBe('/workspace/sub');
    const exited = await sb.runCommand('cd deeper; exit 3', 10_000);
    expect(exited).toMatchObject({ exitCode: 3, cwdAfter: '/workspace/sub/deeper' });
  });

  it("does not let the command's own fd 3 swallow the report", async () => {
    const r = await sb.runCommand('exec 3>fd3.txt; cd ..; echo data >&3', 10_000);
    expect(r.cwdAfter).toBe('/workspace/sub');
    expect((await sb.readFile('deeper/fd3.txt')).ok && (await sb.readFile('deeper/fd3.txt'))).toMatchObject({
      content: 'data\n',
    });
  });

  it('falls back to /workspace when the directory it was in is gone', async () => {
    await asRoot(sb, 'rm -rf /workspace/sub');
    const r = await sb.runCommand('pwd', 10_000);
    expect(r.stdout).toBe('/workspace\n');
    expect(r.stderr).toMatch(/is gone; running in \/workspace/);
    expect(sb.cwd).toBe('/workspace');
  });
});

describe.sequential('a container that dies', () => {
  it('fails the command with a clear error instead of hanging, and reset brings a new one', async () => {
    const oldId = sb.id;
    // Handlers attach at once: the rejection may land while the kill is still being awaited.
    const pending = sb.runCommand('sleep 20', 60_000).then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 500));
    await new Docker().getContainer(oldId).kill();
    const started = Date.now();
    const error = await pending;
    expect(error).toBeInstanceOf(InfraError);
    expect(String(error)).toMatch(
      /sandbox container \w{12} stopped during a command \(exited, exit code 137\)/,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(sb.runCommand('true', 5_000)).rejects.toThrow(/not running/);
    expect(sb.tainted).toBe(true);
    await sb.reset();
    expect(sb.id).not.toBe(oldId);
    expect((await sb.runCommand('echo back', 10_000)).stdout).toBe('back\n');
  });
});

describe.sequential('output space', () => {
  it('says so when background jobs filled the output space, and reset frees it', async () => {
    const tiny = await openSandbox({ tmpfs: { execMb: 2 } });
    try {
      // `yes` fills its (soon deleted) output file and dies; `sleep` keeps the file open.
      await tiny.runCommand('(yes; sleep 300) & sleep 1', 10_000);
      await tiny.workspaceChanges();
      const next = await tiny.runCommand('echo hello; touch seen.txt', 10_000);
      expect(next.stderr).toMatch(/output space is full/);
      // The turn's snapshot comes back all the same (there is no room to keep it for the next).
      expect((await tiny.workspaceChanges()).paths).toEqual(['seen.txt']);
      await tiny.runCommand('rm seen.txt', 10_000);
      expect((await tiny.workspaceChanges()).paths).toEqual(['seen.txt']);
      await tiny.reset();
      const after = await tiny.runCommand('echo hello', 10_000);
      expect(after).toMatchObject({ stdout: 'hello\n', stderr: '' });
    } finally {
      await tiny.dispose();
    }
  });

  it('a job started at the very end of a traced command lives on and runs to its end', async () => {
    // The tracer follows the job on once the command ends (it used to detach, and a child forked
    // just then kept the stop of its automatic attach). Several rounds, so a race would be met at
    // least sometimes on a busy machine (where one was seen to leave the job frozen).
    const lost: number[] = [];
    for (let round = 0; round < 5; round++) {
      await sb.reset();
      const started = await sb.runCommand(
        "nohup sh -c 'sleep 1; echo done > /workspace/job.txt' >/dev/null 2>&1 &",
        10_000,
      );
      expect(started.aliveAfter?.length ?? 0).toBeGreaterThan(0);
      const after = await sb.runCommand('sleep 3; cat job.txt', 10_000);
      if (after.stdout !== 'done\n') lost.push(round);
    }
    expect(lost).toEqual([]);
  }, 120_000);
});
