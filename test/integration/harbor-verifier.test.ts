/**
 * A model trial's Harbor verifier apart from the agent, with the real engine: test.sh imports the
 * agent's code as root (fixtures/harbor-hostile), and that code attacks. A daemon that rewrites
 * reward.txt to 1 after test.sh wrote 0 gets the reward refused (0, tampered); hidden tests it
 * copies into /tmp, /dev and /dev/shm never reach the next trial's agent (they were never in the
 * agent's container); a FIFO where test.sh reads makes a timeout within its bound, not a hang; a
 * supervisor killed or stopped from the tree refuses the reward. The oracle still earns 1, and no verifier
 * container is left behind.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harborEnvironmentSpec } from '../../src/catalogue/harbor/environment.js';
import { loadHarborFolder } from '../../src/catalogue/harbor/load.js';
import { harborVerdict } from '../../src/catalogue/harbor/verify.js';
import { docker } from '../../src/sandbox/docker/engine.js';
import {
  createDockerSandbox,
  type DockerSandbox,
  ensureImage,
  openHarborEnvironment,
} from '../../src/sandbox/index.js';
import type { HarborEnvironment } from '../../src/sandbox/types.js';
import { FORGER } from './fixtures/harbor-hostile-code.js';

const TASK = loadHarborFolder(join(import.meta.dirname, 'fixtures/harbor-hostile'));
const RUN = `vitest-harbor-verifier-${process.pid}`;
let env: HarborEnvironment;
let sandbox: DockerSandbox;

const GOOD_FIB = `def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
`;

/** A wrong fib.py that copies the hidden tests wherever root can write and a later agent could look. */
const LEAKER = `import os, shutil
for place in ('/tmp/leak', '/dev/leak', '/dev/shm/leak', '/workspace/leak', '/run/checker/leak'):
    try:
        shutil.copytree('/tests', place, dirs_exist_ok=True)
        os.chmod(place, 0o777)
        for f in os.listdir(place):
            os.chmod(os.path.join(place, f), 0o666)
    except OSError:
        pass

def fib(n):
    return 0
`;

/** A fib.py that sends `sig` to the verifier's supervisor (the first python3 above it), then claims 1. */
const ATTACK_SUPERVISOR = (sig: 'SIGKILL' | 'SIGSTOP') => `import os, signal
pid = os.getppid()
while pid > 1:
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    with open('/proc/%d/comm' % pid) as f:
        comm = f.read().strip()
    if comm.startswith('python3'):
        os.kill(pid, signal.${sig})
        break
    pid = int(fields[1])
open('/logs/verifier/reward.txt', 'w').write('1\\n')

def fib(n):
    return 0
`;

beforeAll(async () => {
  const base = (await ensureImage()).tag;
  env = openHarborEnvironment(harborEnvironmentSpec(TASK, base));
  sandbox = await createDockerSandbox({
    ...(await env.sandboxImage()),
    limits: { cpus: 1, memory_mb: 1024 },
    labels: { run: RUN, task: TASK.id },
  });
}, 600_000);

afterAll(async () => {
  await sandbox?.dispose();
});

/** A fresh trial: the sandbox reset, the WORKDIR seeded as the run does, then what the agent leaves. */
async function trial(leave: string): Promise<void> {
  await sandbox.reset();
  for (const command of env.setupCommands) {
    const r = await sandbox.exec(['bash', '-c', command], { user: 'agent', cwd: '/workspace' });
    expect(r.exitCode, r.stderr).toBe(0);
  }
  const r = await sandbox.runCommand(leave, 30_000);
  expect(r.exitCode, r.stderr).toBe(0);
}

function writeFib(source: string): string {
  return `cat > /app/fib.py <<'PY'\n${source}PY`;
}

async function verifierContainers(): Promise<number> {
  const listed = await docker().listContainers({
    all: true,
    filters: { label: ['agent-bench.harbor-verifier=1', `agent-bench.run=${RUN}`] },
  });
  return listed.length;
}

/** The first verifier container of this run to appear (within 20 s), as the engine describes it. */
async function verifierShape() {
  for (let i = 0; i < 200; i++) {
    const [first] = await docker().listContainers({
      filters: { label: ['agent-bench.harbor-verifier=1', `agent-bench.run=${RUN}`] },
    });
    if (first !== undefined) {
      const info = await docker().getContainer(first.Id).inspect();
      return {
        sandboxLabel: info.Config.Labels['agent-bench.sandbox'],
        run: info.Config.Labels['agent-bench.run'],
        network: info.HostConfig.NetworkMode,
        memory: info.HostConfig.Memory,
        readOnly: info.HostConfig.ReadonlyRootfs,
        init: info.HostConfig.Init ?? false,
        image: info.Config.Image,
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

describe.sequential('the Harbor verifier of a model trial, apart from the agent', () => {
  it('the oracle earns 1 in the verifier container, and the sandbox keeps no verifier state', async () => {
    await trial(writeFib(GOOD_FIB));
    const run = await env.verify(sandbox);
    expect(run).toMatchObject({
      reward: { ok: true, reward: 1 },
      timedOut: false,
      tampered: null,
      exitCode: 0,
    });
    expect(harborVerdict(TASK, run).passed).toBe(true);
    // Nothing of the verifier's ran or landed in the agent's sandbox.
    const look = await sandbox.exec(
      ['bash', '-c', 'ls -A /harness; ls /tests /logs/verifier 2>&1 | head -2'],
      {
        user: 'root',
        cwd: '/',
      },
    );
    expect(look.stdout).not.toMatch(/test\.sh|reward/);
    expect(await verifierContainers()).toBe(0);
  });

  it('refuses the reward a root daemon rewrote to 1 after test.sh wrote 0', async () => {
    await trial(writeFib(FORGER));
    const run = await env.verify(sandbox);
    expect(run.reward).toEqual({ ok: true, reward: 0, metrics: {} });
    expect(run.tampered).toMatch(
      /^reward refused: process\(es\) (left tests\/test.sh's process tree|outlived)/,
    );
    expect(run.tampered).toContain('python3[');
    // The daemon did forge it: the file said 1 when the supervisor read it.
    expect(run.tampered).toMatch(/\(it read 1\)$/);
    const verdict = harborVerdict(TASK, run);
    expect(verdict).toMatchObject({ passed: false, score: 0 });
    expect(await verifierContainers()).toBe(0);
  });

  it("hidden tests the agent's code copied as root never reach the next trial's agent", async () => {
    await trial(writeFib(LEAKER));
    const run = await env.verify(sandbox);
    // An honest tree (nothing left behind): its reward, 0, counts.
    expect(run).toMatchObject({ reward: { ok: true, reward: 0 }, tampered: null });
    // The live workspace never saw the verifier's copy either.
    const now = await sandbox.runCommand('ls /workspace', 10_000);
    expect(now.stdout).not.toContain('leak');
    await trial('true');
    const look = await sandbox.runCommand(
      'grep -rl HIDDEN-CASES /tmp /dev /workspace /run 2>/dev/null; ls -d /tmp/leak /dev/leak /dev/shm/leak /tests/check_fib.py 2>&1',
      30_000,
    );
    expect(look.stdout).not.toContain('HIDDEN');
    expect(look.stdout).not.toMatch(/^\/(tmp|dev)\S*leak$/m);
    expect(look.stdout).toMatch(/\/tmp\/leak': No such file/);
    expect(look.stdout).toMatch(/\/dev\/leak': No such file/);
  });

  it('a FIFO where test.sh reads is a timeout within its bound, not a hang nor a throw', async () => {
    await trial('rm /app/fib.py && mkfifo /app/fib.py');
    const started = Date.now();
    const running = env.verify(sandbox);
    // Meanwhile its container is there, shaped like the sandbox and labelled for the sweeps.
    const shape = await verifierShape();
    const run = await running;
    const seconds = (Date.now() - started) / 1000;
    expect(shape).toEqual({
      sandboxLabel: '1',
      run: RUN,
      network: 'none',
      memory: 1024 * 1024 * 1024,
      readOnly: true,
      init: false,
      image: (await env.sandboxImage()).image,
    });
    expect(run.timedOut).toBe(true);
    expect(run.tampered).toBeNull();
    expect(run.reward).toEqual({
      ok: false,
      problem: 'tests/test.sh did not finish within 8 s and was killed',
    });
    expect(run.output).toContain('[tests/test.sh killed after 8 s]');
    // 8 s of timeout, a few for the container and the copies; far below the 15 s report margin.
    expect(seconds).toBeGreaterThanOrEqual(8);
    expect(seconds).toBeLessThan(8 + 15);
    expect(await verifierContainers()).toBe(0);
  });

  it("a supervisor killed from test.sh's tree refuses the reward it left", async () => {
    await trial(writeFib(ATTACK_SUPERVISOR('SIGKILL')));
    const run = await env.verify(sandbox);
    expect(run.reward).toEqual({ ok: true, reward: 0, metrics: {} });
    expect(run.tampered).toMatch(/supervisor ended without its report/);
    expect(await verifierContainers()).toBe(0);
  });

  it("a supervisor stopped from test.sh's tree is given up on at its deadline, the reward refused", async () => {
    await trial(writeFib(ATTACK_SUPERVISOR('SIGSTOP')));
    const started = Date.now();
    const run = await env.verify(sandbox);
    const seconds = (Date.now() - started) / 1000;
    expect(run.reward).toEqual({ ok: true, reward: 0, metrics: {} });
    expect(run.tampered).toBe(
      "reward refused: the verifier's supervisor gave no report within 23 s (stopped by a process of tests/test.sh?)",
    );
    expect(seconds).toBeGreaterThanOrEqual(23);
    expect(seconds).toBeLessThan(23 + 15);
    expect(await verifierContainers()).toBe(0);
  }, 120_000);
});
