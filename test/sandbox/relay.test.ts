/**
 * The exec relay (sandbox/relay/exec_relay.py): commands start from a process in the container
 * instead of an engine exec each, nothing about them tells the two ways apart, a relay that ends
 * is replaced, and a container without one is used through engine execs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerOptions } from '../../src/sandbox/docker/container.js';
import { ExecRelay } from '../../src/sandbox/docker/relay.js';
import type { DockerSandbox } from '../../src/sandbox/index.js';
import { RELAY_DIR } from '../../src/sandbox/tools.js';
import type { CommandResult, ExecResult } from '../../src/sandbox/types.js';
import { asRoot, IMAGE_TIMEOUT_MS, openSandbox, sandboxImage } from './fixture.js';

let relayed: DockerSandbox;
let direct: DockerSandbox;

beforeAll(async () => {
  [relayed, direct] = await Promise.all([openSandbox(), openSandbox({ relay: false })]);
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all([relayed?.dispose(), direct?.dispose()]);
});

/** The command lines of a root probe's ancestors, nearest first: who started its exec wrapper. */
async function ancestors(sb: DockerSandbox): Promise<string[]> {
  const r = await asRoot(
    sb,
    'p=$$; while p=$(ps -o ppid= -p "$p" | tr -d " ") && [ "$p" -gt 0 ]; do echo "$p $(ps -o args= -p "$p")"; done',
  );
  expect(r.exitCode).toBe(0);
  return r.stdout.trim().split('\n');
}

/** The engine's own count of execs it created in a container since `since` (unix seconds, fractional). */
function engineExecs(id: string, since: number): number {
  return execFileSync(
    'docker',
    [
      ...['events', '--since', String(since), '--until', String(Math.ceil(Date.now() / 1000) + 1)],
      ...['--filter', `container=${id}`, '--filter', 'event=exec_create', '--format', '{{.ID}}'],
    ],
    { encoding: 'utf8' },
  )
    .split('\n')
    .filter((l) => l.trim() !== '').length;
}

const relayOf = (lines: string[]): string | undefined =>
  lines.find((l) => l.includes('exec_relay'))?.split(' ')[0];

/** What a caller sees of a result, but for the time it took. */
function seen(r: CommandResult | ExecResult): unknown {
  const { elapsedMs: _, trace, ...rest } = r;
  // Survivors' pids are each container's own: how many there were is what must agree.
  const alive = 'aliveAfter' in r ? { aliveAfter: r.aliveAfter?.length } : {};
  return {
    ...rest,
    ...alive,
    // In the order each started, which a pipeline's members race for.
    trace: trace?.processes
      .map((p) => JSON.stringify({ argv: p.argv, cwd: p.cwd, exit: p.exitCode, signal: p.signal }))
      .sort(),
  };
}

describe.sequential('the exec relay', () => {
  it('starts commands from inside the container; an engine exec when asked not to', async () => {
    const viaRelay = await ancestors(relayed);
    expect(viaRelay.some((l) => l.includes('exec-wrapper'))).toBe(true);
    expect(relayOf(viaRelay)).toBeDefined();
    const viaEngine = await ancestors(direct);
    expect(viaEngine.some((l) => l.includes('exec-wrapper'))).toBe(true);
    expect(relayOf(viaEngine)).toBeUndefined();
  });

  it('gives what an engine exec gives: output, exit, cwd, caps, timeouts, stdin, users, traces', async () => {
    const commands: [string, number][] = [
      ['echo out; echo err >&2; exit 7', 10_000],
      ['cd /tmp && mkdir -p d && cd d && pwd', 10_000],
      ['pwd', 10_000],
      ['id; umask; ulimit -a; grep -E "^(Cap|NoNewPrivs|Seccomp)" /proc/self/status', 10_000],
      ['env | grep -v "^_=" | sort', 10_000],
      ['printf "\\xff\\xfe bytes \\u00e9 \\ud800"; echo " \ud800 lone"', 10_000],
      ['head -c 400000 /dev/zero | tr "\\0" a; head -c 300000 /dev/zero >&2', 10_000],
      ['sleep 5; echo late', 1_000],
      ['python3 -c "import os; print(os.getcwd())" && ls / | head -3', 10_000],
      ['kill -9 $$', 10_000],
      ['(sleep 3; echo bg) & echo fg', 10_000],
    ];
    for (const [command, timeoutMs] of commands) {
      const [a, b] = await Promise.all([
        relayed.runCommand(command, timeoutMs),
        direct.runCommand(command, timeoutMs),
      ]);
      expect(seen(a), command).toEqual(seen(b));
    }
    const stdin = Buffer.concat([Buffer.from('line 1\n'), Buffer.alloc(200_000, 0x62)]);
    for (const user of ['agent', 'checker', 'root'] as const) {
      const script = 'wc -c; echo "$HOME $USER $LOGNAME ${TMPDIR:-} $LANG $PATH"; id -u';
      const run = (sb: DockerSandbox) => sb.exec(['bash', '-c', script], { user, stdin, cwd: '/' });
      const [a, b] = await Promise.all([run(relayed), run(direct)]);
      expect(seen(a), user).toEqual(seen(b));
      expect(a.stdout).toContain('200007');
    }
  });

  it('a turn costs no engine exec: a command, a file written and read, the looks after them', async () => {
    const turns = async (sb: DockerSandbox) => {
      await sb.runCommand('true', 10_000); // the relay is up (it starts with the sandbox)
      const since = Date.now() / 1000;
      const out = [
        await sb.runCommand('cd /workspace && mkdir -p t && echo a > t/f.txt && ls t', 10_000),
        await sb.workspaceChanges(),
        await sb.writeFile('t/g.txt', 'written\n'),
        await sb.readFile('t/g.txt'),
        await sb.workspaceChanges(),
        await sb.writeFile('/etc/passwd', 'no'),
        await sb.readFile('/etc/shadow'),
        await sb.readFile('t'),
      ].map((r) => ('snapshotMs' in r ? { ...r, snapshotMs: 0 } : r));
      return { out, execs: engineExecs(sb.id, since) };
    };
    const [a, b] = [await turns(relayed), await turns(direct)];
    expect(a.execs).toBe(0);
    expect(b.execs).toBeGreaterThanOrEqual(7);
    // Survivors (an earlier test's background job may still run in one of them) are not this test's.
    const { elapsedMs: _, aliveAfter: __, ...ra } = a.out[0] as CommandResult;
    const { elapsedMs: ___, aliveAfter: ____, ...rb } = b.out[0] as CommandResult;
    expect({ ...ra, trace: ra.trace?.processes.length }).toEqual({
      ...rb,
      trace: rb.trace?.processes.length,
    });
    expect(a.out.slice(1)).toEqual(b.out.slice(1));
    expect(a.out[1]).toMatchObject({ paths: ['t', 't/f.txt'] });
    expect(a.out[4]).toMatchObject({ paths: ['t/g.txt'] });
  });

  it("is out of the agent's reach: no signal, no descriptor, no memory", async () => {
    const pid = relayOf(await ancestors(relayed));
    const r = await relayed.runCommand(
      `kill -KILL ${pid}; kill -STOP ${pid}; ls /proc/${pid}/fd; echo x > /proc/${pid}/fd/0; head -c1 /proc/${pid}/fd/1; ` +
        `head -c1 /proc/${pid}/mem; cat /proc/${pid}/environ; echo done`,
      10_000,
    );
    expect(r.stdout).toBe('done\n');
    for (const what of ['kill', 'ls', 'fd/0', 'fd/1', 'mem', 'environ'])
      expect(r.stderr, what).toMatch(
        new RegExp(`${what.replace('/', '\\/')}.*(not permitted|Permission denied)`),
      );
    expect(relayOf(await ancestors(relayed))).toBe(pid);
    expect((await relayed.runCommand('echo still', 10_000)).stdout).toBe('still\n');
  });

  it('is replaced when it dies; the command it took down fails at once instead of hanging', async () => {
    const first = relayOf(await ancestors(relayed));
    expect(first).toBeDefined();
    // Root kills the relay from a command the relay itself started: no reply can come.
    const started = performance.now();
    const r = await asRoot(relayed, `kill -KILL ${first}; sleep 2; echo never`);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r.exitCode).toBeNull();
    expect(r.stdout).not.toContain('never');
    expect(r.stderr).toMatch(/relay/);
    const next = await relayed.runCommand('echo alive', 10_000);
    expect(next.stdout).toBe('alive\n');
    const second = relayOf(await ancestors(relayed));
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it("outlives a reset, which kills every other process (root's daemons too) and costs no engine exec", async () => {
    await relayed.reset();
    const before = relayOf(await ancestors(relayed));
    // An agent's background job, and a daemon a harness exec left as root.
    await relayed.runCommand('sleep 1000 >/dev/null 2>&1 &', 10_000);
    await asRoot(relayed, 'nohup sleep 1001 >/dev/null 2>&1 &');
    const since = Date.now() / 1000;
    await relayed.reset();
    await relayed.killAllProcesses();
    await relayed.killAgentProcesses();
    const copy = await relayed.stageForChecks();
    await relayed.putFiles([{ path: '/workspace/p.txt', content: 'put\n' }]);
    const got = await relayed.getFiles(['/workspace/p.txt']);
    expect(got.get('/workspace/p.txt')?.toString()).toBe('put\n');
    expect(copy.startsWith('/checks/')).toBe(true);
    expect(engineExecs(relayed.id, since)).toBe(0);
    const after = relayOf(await ancestors(relayed));
    expect(before).toBeDefined();
    expect(after).toBe(before);
    const r = await asRoot(
      relayed,
      'for p in $(pgrep -x python3); do tr "\\0" " " <"/proc/$p/cmdline"; echo; done | grep -c exec_relay.main; pgrep -f "^sleep 100[01]$" || true',
    );
    // One relay, and neither sleeper.
    expect(r.stdout.trim()).toBe('1');
  });
});

describe('a sandbox left open', () => {
  it("does not keep its process alive through its relay's stream", async () => {
    // The built code (the integration project builds it first), in a process of its own that never disposes.
    const index = pathToFileURL(join(import.meta.dirname, '../../dist/src/sandbox/index.js')).href;
    const script = `const { createDockerSandbox } = await import(${JSON.stringify(index)});
const sb = await createDockerSandbox({ image: ${JSON.stringify(await sandboxImage())}, labels: { run: 'vitest' } });
const r = await sb.runCommand('echo relayed', 10000);
process.stdout.write(sb.id + ' ' + r.stdout);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    const [id, said] = child.stdout.trim().split(' ');
    try {
      expect(said, child.stderr).toBe('relayed');
      expect(child.signal, 'killed at the timeout: something kept it alive').toBeNull();
      expect(child.status).toBe(0);
    } finally {
      if (id !== undefined && /^[0-9a-f]{64}$/.test(id))
        await new Docker().getContainer(id).remove({ force: true });
    }
  });
});

describe('a container without a relay', () => {
  it('gives none, quickly: its sandbox runs commands through engine execs', async () => {
    const docker = new Docker();
    const options = containerOptions({ image: await sandboxImage(), labels: { run: 'vitest' } });
    // The image as one built before the relay existed would be: nothing at its path.
    options.HostConfig = {
      ...options.HostConfig,
      Tmpfs: { ...options.HostConfig?.Tmpfs, [RELAY_DIR]: 'ro,size=1m' },
    };
    const container = await docker.createContainer(options);
    try {
      await container.start();
      const started = performance.now();
      expect(await ExecRelay.start(container)).toBeNull();
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await container.remove({ force: true });
    }
  });
});
