/**
 * What the agent cannot do, proven by trying: reach a network, write the image, read the
 * harness's files, hold capabilities, signal root's processes, exhaust the host's processes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DockerSandbox, ExecStalled } from '../../src/sandbox/index.js';
import type { CommandResult } from '../../src/sandbox/types.js';
import { agentProcesses, asRoot, IMAGE_TIMEOUT_MS, openSandbox } from './fixture.js';

let sb: DockerSandbox;

beforeAll(async () => {
  sb = await openSandbox();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
});

describe.sequential('isolation', () => {
  it('has no network but loopback', async () => {
    const r = await sb.runCommand('awk -F: \'NR > 2 { gsub(/ /, "", $1); print $1 }\' /proc/net/dev', 10_000);
    expect(r.stdout.trim().split('\n')).toEqual(['lo']);
    const connect = await sb.runCommand(
      'python3 -c "import socket; socket.create_connection((\'1.1.1.1\', 53), timeout=3)"',
      10_000,
    );
    expect(connect.exitCode).not.toBe(0);
    expect(connect.stderr).toMatch(/Network is unreachable/);
  });

  it('runs the agent as uid 1000 with no capabilities and no way to gain any', async () => {
    const r = await sb.runCommand(
      'id -u; grep -E "^(CapInh|CapPrm|CapEff|CapAmb|NoNewPrivs)" /proc/self/status',
      10_000,
    );
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('1000');
    for (const line of lines.slice(1, 5)) expect(line).toMatch(/:\s+0{16}$/);
    expect(lines[5]).toMatch(/NoNewPrivs:\s+1/);
    // A setuid-root binary does not make the agent root: honoured, `passwd -S` reads /etc/shadow
    // and prints "agent L <date> ..."; under no-new-privileges it cannot and prints "agent P".
    const suid = await sb.runCommand('ls -l /usr/bin/passwd; /usr/bin/passwd -S agent', 10_000);
    expect(suid.stdout).toMatch(/^-rwsr-xr-x 1 root/);
    expect(suid.stdout.trim().split('\n')[1]).toBe('agent P');
  });

  it('cannot write the image: /etc and /usr are read-only, for root too', async () => {
    for (const path of [
      '/etc/agent-was-here',
      '/usr/lib/python3/dist-packages/sitecustomize.py',
      '/usr/bin/python3',
    ]) {
      const r = await sb.runCommand(`echo x > ${path}`, 10_000);
      expect(r.exitCode, path).not.toBe(0);
      expect(r.stderr, path).toMatch(/Read-only file system|Permission denied/);
    }
    const asRootToo = await asRoot(sb, 'touch /usr/bin/evil');
    expect(asRootToo.exitCode).not.toBe(0);
    expect(asRootToo.stderr).toMatch(/Read-only file system/);
    expect((await sb.writeFile('/etc/passwd', 'root::0:0::/:/bin/sh\n')).ok).toBe(false);
  });

  it('cannot see or touch the harness directory', async () => {
    await sb.putFiles([{ path: '/harness/hidden_test.py', content: 'SECRET = 1\n' }], { owner: 'root' });
    const ls = await sb.runCommand('ls /harness; cat /harness/hidden_test.py', 10_000);
    expect(ls.exitCode).not.toBe(0);
    expect(ls.stdout).not.toContain('hidden_test');
    expect(ls.stderr).toMatch(/Permission denied/);
    expect((await sb.readFile('/harness/hidden_test.py')).ok).toBe(false);
    expect((await sb.writeFile('/harness/planted.py', 'x')).ok).toBe(false);
    const seen = await asRoot(sb, 'cat /harness/hidden_test.py; ls /harness');
    expect(seen.stdout).toBe('SECRET = 1\nhidden_test.py\n');
  });

  it("cannot signal root's processes: init, the keeper and the exec wrapper survive kill -9 -1", async () => {
    const before = await asRoot(sb, 'pgrep -u 0 -x sleep; pgrep -u 0 docker-init');
    const denied = await sb.runCommand('kill -9 1; echo "rc=$?"', 10_000);
    expect(denied.stdout).toBe('rc=1\n');
    expect(denied.stderr).toMatch(/Operation not permitted/);
    // kill -9 -1 spares only its caller; the exec wrapper (root) lives on to report.
    const all = await sb.runCommand('sleep 60 & kill -9 -1; echo "caller survives"', 10_000);
    expect(all).toMatchObject({ exitCode: 0, stdout: 'caller survives\n', timedOut: false });
    const self = await sb.runCommand('echo before; pkill -9 -u agent; echo not reached', 10_000);
    expect(self).toMatchObject({ exitCode: 137, stdout: 'before\n', timedOut: false });
    const after = await asRoot(sb, 'pgrep -u 0 -x sleep; pgrep -u 0 docker-init');
    expect(after.stdout).toBe(before.stdout);
    expect(after.stdout.trim().split('\n')).toHaveLength(2);
  });

  it('gives root only the capabilities the harness needs (no CHOWN, no SYS_ADMIN)', async () => {
    const r = await asRoot(
      sb,
      'grep CapEff /proc/self/status; chown 1000 /harness 2>&1; mount -t tmpfs none /mnt 2>&1; true',
    );
    // KILL (5), SETUID (7), SETGID (6), FOWNER (3), DAC_OVERRIDE (1).
    expect(r.stdout).toMatch(/CapEff:\s+00000000000000ea/);
    expect(r.stdout).toMatch(/chown: changing ownership of '\/harness': Operation not permitted/);
    expect(r.stdout).toMatch(/mount: \/mnt: permission denied/);
  });

  it('reaps orphaned zombies (init runs as pid 1)', async () => {
    const r = await sb.runCommand(
      'for i in $(seq 20); do (sleep 0.2 &); done; sleep 1.5; ps -eo stat= | grep -c "^Z"',
      10_000,
    );
    expect(r.stdout.trim()).toBe('0');
    const init = await asRoot(sb, 'ps -o args= -p 1');
    expect(init.stdout).toMatch(/docker-init/);
  });
});

describe.sequential('process limit', () => {
  let small: DockerSandbox;

  beforeAll(async () => {
    small = await openSandbox({ limits: { pids: 64 } });
  }, IMAGE_TIMEOUT_MS);

  afterAll(async () => {
    await small?.dispose();
  });

  /**
   * After a command that forked past the limit: either the forks' own errors came back and the
   * agent's processes are killed, or, with every pid taken, the command could not even finish, a
   * stall inside the container (the agent's: the engine answers), and the container abandoned
   * for a fresh one at the reset.
   */
  async function carryOn(outcome: CommandResult | Error): Promise<void> {
    if (outcome instanceof ExecStalled) {
      expect(outcome).toMatchObject({ user: 'agent', engineAnswered: true });
      await small.reset();
      return;
    }
    if (outcome instanceof Error) throw outcome;
    expect(outcome.stderr).toMatch(/fork: (retry: )?Resource temporarily unavailable/);
    await small.killAgentProcesses();
  }

  it('contains a fork bomb, and the harness still kills it and carries on', async () => {
    const bomb = await small.runCommand('bomb() { bomb | bomb & }; bomb; sleep 2', 4_000).catch((e) => e);
    // Either the bomb's own fork errors come back, or, with every pid taken, the command could
    // not even finish: a stall inside the container, the agent's (the engine answers).
    await carryOn(bomb);
    expect(await agentProcesses(small)).toBe('');
    const after = await small.runCommand('echo alive', 10_000);
    expect(after.stdout).toBe('alive\n');
  }, 60_000);

  it('contains a `yes > /dev/null &` storm, and the harness still kills it and carries on', async () => {
    // Each fork past the limit fails (bash retries for a while, then gives up on that job).
    const storm = await small
      .runCommand('for i in $(seq 100); do yes > /dev/null & done; echo launched', 20_000)
      .catch((e) => e);
    await carryOn(storm);
    expect(await agentProcesses(small)).toBe('');
    expect((await small.runCommand('echo alive', 10_000)).stdout).toBe('alive\n');
  }, 90_000);
});
