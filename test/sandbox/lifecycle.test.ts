/** A sandbox's life: killing the agent's processes, reset between trials, recreation, disposal, sweeping. */
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerOptions } from '../../src/sandbox/docker/container.js';
import { LABEL } from '../../src/sandbox/docker/labels.js';
import { ContainerGoneError, type DockerSandbox, sweepSandboxes } from '../../src/sandbox/index.js';
import { InfraError } from '../../src/util/errors.js';
import {
  agentProcesses,
  asChecker,
  asRoot,
  IMAGE_TIMEOUT_MS,
  openSandbox,
  otherProcesses,
  sandboxImage,
} from './fixture.js';

const docker = new Docker();
let sb: DockerSandbox;

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

/** init and the keeper (the tools bundle's sleep), as ps and pgrep show them. */
const KEEPER =
  /^\/sbin\/docker-init -- \/opt\/agent-bench\/bin\/sleep infinity\n\d+ \/opt\/agent-bench\/bin\/sleep infinity\n$/;

/**
 * The pid of a process that is gone, for good: above the kernel's largest pid_max (2^22). A child
 * that just exited is not: with pid_max at 32768 and CI spawning thousands of processes a minute,
 * its pid came back to a live process before the sweep looked (CI caught it twice).
 */
const GONE_PID = String(2 ** 22 + 1);

describe.sequential('killAgentProcesses', () => {
  it('kills every agent process, detached ones included; init and the keeper stay', async () => {
    await sb.runCommand(
      'sleep 301 & setsid sleep 302 & nohup sleep 303 >/dev/null 2>&1 & (setsid sleep 304 &); sleep 305 & disown; true',
      10_000,
    );
    const before = await agentProcesses(sb);
    for (const n of [301, 302, 303, 304, 305]) expect(before).toContain(`sleep ${n}`);
    await sb.killAgentProcesses();
    expect(await agentProcesses(sb)).toBe('');
    const root = await asRoot(sb, 'ps -o args= -p 1; pgrep -u 0 -x -a sleep');
    expect(root.stdout).toMatch(KEEPER);
  });
});

describe.sequential('killAllProcesses', () => {
  it("kills every process whoever started it: the agent's, the checker's, a harness exec's daemons", async () => {
    await sb.runCommand('setsid nohup sleep 1001 >/dev/null 2>&1 & sleep 1002 &', 10_000);
    await asChecker(sb, 'setsid nohup sleep 1003 >/dev/null 2>&1 & nohup sleep 1004 >/dev/null 2>&1 &');
    await asRoot(sb, 'setsid nohup sleep 1005 >/dev/null 2>&1 & (sleep 1006 &)');
    const before = await otherProcesses(sb);
    for (const n of [1001, 1002, 1003, 1004, 1005, 1006]) expect(before).toContain(`sleep ${n}`);
    expect(before).toMatch(/checker +sleep 1003/);
    expect(before).toMatch(/root +sleep 1005/);
    const id = sb.id;
    await sb.killAllProcesses();
    expect(await otherProcesses(sb)).toBe('');
    expect(sb.id).toBe(id);
    const root = await asRoot(sb, 'ps -o args= -p 1; pgrep -u 0 -x -a sleep');
    expect(root.stdout).toMatch(KEEPER);
    expect((await sb.runCommand('echo alive', 10_000)).stdout).toBe('alive\n');
  });

  it('is what reset uses: daemons of the checker and of root do not survive into the next trial', async () => {
    await asChecker(sb, 'setsid nohup sleep 1007 >/dev/null 2>&1 &');
    await asRoot(sb, 'setsid nohup sleep 1008 >/dev/null 2>&1 &');
    await sb.reset();
    expect(await otherProcesses(sb)).toBe('');
  });
});

describe.sequential('reset', () => {
  it('leaves no trace of the previous trial, in the same container', async () => {
    const id = sb.id;
    await sb.writeFile('leftover.txt', 'from trial 1');
    await sb.putFiles([{ path: '/harness/hidden.py', content: 'x' }], { owner: 'root' });
    await sb.runCommand(
      'mkdir -p sub/locked && touch sub/locked/f && chmod 000 sub/locked sub && chmod 700 /workspace',
      10_000,
    );
    await sb.runCommand('sleep 300 & echo spawned', 10_000);
    await sb.runCommand(
      'cd /tmp && echo t > in-tmp.txt && echo s > /dev/shm/in-shm && python3 -c "from multiprocessing import shared_memory as m; m.SharedMemory(create=True, size=64, name=\'trace\').close()"; ipcmk -M 4096 >/dev/null',
      10_000,
    );
    expect(sb.cwd).toBe('/tmp');

    await sb.reset();

    expect(sb.id).toBe(id);
    expect(sb.cwd).toBe('/workspace');
    expect((await sb.snapshot()).size).toBe(0);
    expect(await agentProcesses(sb)).toBe('');
    const look = await asRoot(
      sb,
      'ls -A /workspace /tmp /dev/shm /harness; stat -c "%a %U %n" /workspace /tmp /harness; ipcs -m | grep -c "^0x" || true',
    );
    expect(look.stdout).toBe(
      '/dev/shm:\n\n/harness:\n\n/tmp:\n\n/workspace:\n750 agent /workspace\n1777 agent /tmp\n700 root /harness\n0\n',
    );
    const fresh = await sb.runCommand('pwd; ls -A; ls -A /tmp', 10_000);
    expect(fresh.stdout).toBe('/workspace\n');
  });

  it("wipes what root left in /dev and /sys/fs/cgroup (a daemon's copy of hidden tests)", async () => {
    const id = sb.id;
    const before = await asRoot(sb, 'ls -A /dev /sys/fs/cgroup');
    await asRoot(
      sb,
      'mkdir -p /dev/.hidden && echo "SECRET" > /dev/.hidden/test_hidden.py && echo s > /dev/stash && echo c > /sys/fs/cgroup/stash && ln -s /tmp /dev/to-tmp',
    );
    expect((await sb.readFile('/dev/.hidden/test_hidden.py')).ok).toBe(true);
    await sb.reset();
    expect(sb.id).toBe(id);
    for (const path of ['/dev/.hidden/test_hidden.py', '/dev/stash', '/sys/fs/cgroup/stash'])
      expect(await sb.readFile(path), path).toMatchObject({ ok: false });
    expect((await asRoot(sb, 'ls -A /dev /sys/fs/cgroup')).stdout).toBe(before.stdout);
  });

  it('replaces the container when a device of /dev was replaced by a file', async () => {
    const id = sb.id;
    await asRoot(sb, 'rm /dev/null && echo planted > /dev/null');
    await sb.reset();
    expect(sb.id).not.toBe(id);
    expect((await asRoot(sb, 'stat -c %F /dev/null')).stdout).toBe('character special file\n');
  });

  it('replaces a container whose host-side deadline passed (a process may still run in it)', async () => {
    const small = await openSandbox();
    try {
      const id = small.id;
      // A frozen container answers nothing, and its command's own timeout cannot fire either.
      const pending = small.runCommand('sleep 60', 2_000);
      await new Promise((r) => setTimeout(r, 500));
      await docker.getContainer(id).pause();
      // Paused is not running: the engine's doing, not the agent's (no ExecStalled).
      const err = await pending.catch((e) => e);
      expect(err).toBeInstanceOf(ContainerGoneError);
      // 2 s of command, 5 s of grace, 10 s for the snapshot folded into the command.
      expect(err.message).toMatch(/paused.*no answer from the sandbox within 17 s/);
      expect(small.tainted).toBe(true);
      await small.reset();
      expect(small.tainted).toBe(false);
      expect(small.id).not.toBe(id);
      await expect(docker.getContainer(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
      expect((await small.runCommand('echo fresh', 10_000)).stdout).toBe('fresh\n');
    } finally {
      await small.dispose();
    }
  }, 120_000);

  it('comes back from a command that took every process slot, says why the next cannot run, and replaces the container', async () => {
    const small = await openSandbox({ limits: { pids: 48 } });
    try {
      // Takes every free pid and keeps retrying, outside the command's process group.
      await small.putFiles([
        {
          path: 'hog.py',
          content:
            'import os, time\nwhile True:\n  try:\n    if os.fork() == 0:\n      time.sleep(1000)\n  except OSError:\n    time.sleep(0.002)\n',
        },
      ]);
      const id = small.id;
      // The wrapper's report already runs and needs no new process: the result comes back.
      const r = await small.runCommand('setsid python3 hog.py >/dev/null 2>&1 & sleep 1; echo after', 2_000);
      expect(r.stderr).not.toMatch(/no answer from the sandbox/);
      const next = await small.runCommand('echo unreachable', 2_000);
      expect(next.exitCode).toBeNull();
      expect(next.stderr).toMatch(/could not run the command.*every process slot of the sandbox is taken/);
      expect(small.tainted).toBe(true);
      await small.reset();
      expect(small.id).not.toBe(id);
      expect((await small.runCommand('echo fresh', 10_000)).stdout).toBe('fresh\n');
    } finally {
      await small.dispose();
    }
  }, 120_000);
});

describe.sequential('dispose', () => {
  it('removes the container, is safe to repeat, and refuses further use', async () => {
    const other = await openSandbox();
    const id = other.id;
    await other.dispose();
    await other.dispose();
    await expect(docker.getContainer(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(other.runCommand('true', 1_000)).rejects.toThrow(InfraError);
  });

  it('a second call, while the first is removing, returns only once the container is gone', async () => {
    // A stopping run disposes every sandbox at once, then again as each trial ends: the engine
    // answers the second remove with 409 (in progress), which must not end the run early.
    const other = await openSandbox();
    const id = other.id;
    const first = other.dispose();
    // Wait (on the engine, not a clock) until the first removal is under way.
    while ((await docker.getContainer(id).inspect()).State.Status === 'running');
    await other.dispose();
    await expect(docker.getContainer(id).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await first;
  });
});

describe.sequential('sweepSandboxes', () => {
  it('removes a labelled container whose creating process is gone, and keeps live ones', async () => {
    const deadPid = GONE_PID;
    const options = containerOptions({ image: await sandboxImage(), labels: { run: 'sweep-test' } });
    const orphan = await docker.createContainer({
      ...options,
      Labels: { ...options.Labels, [LABEL.pid]: deadPid },
    });
    await orphan.start();

    await sweepSandboxes();

    // Gone, whoever swept it: a run starting in another test file sweeps too, so this sweep's own
    // count may be 0 (CI caught one such race).
    await expect(orphan.inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect((await docker.getContainer(sb.id).inspect()).State.Running).toBe(true);
  });

  it("removes a labelled volume (a verifier's copy) whose creating process is gone, and keeps live ones", async () => {
    const deadPid = GONE_PID;
    const labels = containerOptions({ image: await sandboxImage(), labels: { run: 'sweep-test' } }).Labels;
    const orphan = `agent-bench-sweep-orphan-${process.pid}`;
    const live = `agent-bench-sweep-live-${process.pid}`;
    await docker.createVolume({ Name: orphan, Labels: { ...labels, [LABEL.pid]: deadPid } });
    await docker.createVolume({ Name: live, Labels: labels });
    try {
      await sweepSandboxes();
      await expect(docker.getVolume(orphan).inspect()).rejects.toMatchObject({ statusCode: 404 });
      expect((await docker.getVolume(live).inspect()).Name).toBe(live);
    } finally {
      await docker
        .getVolume(live)
        .remove()
        .catch(() => {});
      await docker
        .getVolume(orphan)
        .remove()
        .catch(() => {});
    }
  });
});
