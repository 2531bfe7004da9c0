/**
 * Nothing the agent holds can freeze or stall the harness, proven by trying: a `kill -STOP -1`
 * loop as the agent (and one as the checker, as agent code imported by a check would start) stops
 * every process that user may signal, yet the file tools, the kills, the harness's execs and the
 * reset all finish within a bound, and the loop is dead afterwards. An exec that does stall inside
 * the container (here: root stops the relay) is an ExecStalled the harness can attribute, and the
 * container is abandoned and replaced.
 */
import { execFileSync } from 'node:child_process';
import Docker from 'dockerode';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DockerSandbox, ExecStalled } from '../../src/sandbox/index.js';
import {
  agentProcesses,
  asChecker,
  asRoot,
  IMAGE_TIMEOUT_MS,
  openSandbox,
  otherProcesses,
} from './fixture.js';

const docker = new Docker();
/** What any one harness step may take while the loop runs (the machine is shared and slow). */
const BOUND_MS = 60_000;
// It starts a moment after the command that launches it has ended (it would stop that one too).
const STOP_LOOP = 'sleep 2; while :; do kill -STOP -1 2>/dev/null; done';
const LAUNCH = `setsid nohup bash -c '${STOP_LOOP}' >/dev/null 2>&1 &`;
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 3_000));

let sb: DockerSandbox;

/**
 * A read_file stalled in a container of its own: its 30 s deadline (a constant of the file tools)
 * passes while the other tests run, and the last test reads how it ended.
 */
let fileToolStall: Promise<{ stalled: unknown; dispose: () => Promise<void> }>;

async function stallFileTool(): Promise<{ stalled: unknown; dispose: () => Promise<void> }> {
  const other = await openSandbox();
  const dispose = () => other.dispose();
  try {
    expect((await other.writeFile('a.txt', 'a')).ok).toBe(true);
    stopRelay(other.id);
    return { stalled: await other.readFile('a.txt').catch((e) => e), dispose };
  } catch (err) {
    return { stalled: err, dispose };
  }
}

beforeAll(async () => {
  sb = await openSandbox();
  fileToolStall = stallFileTool();
}, IMAGE_TIMEOUT_MS);

afterAll(async () => {
  await sb?.dispose();
  await (await fileToolStall)?.dispose();
});

// Each starts clean, even after one that failed half-way.
beforeEach(async () => {
  await sb.reset();
}, 120_000);

/** `step`, which must finish within BOUND_MS; its time. */
async function bounded<T>(step: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await step();
  const ms = Date.now() - started;
  expect(ms).toBeLessThan(BOUND_MS);
  return { value, ms };
}

/**
 * Root stops the container's relay through an engine exec of its own: what nothing the agent runs
 * can do, but the one way left for an exec to stall inside a container that still runs.
 */
function stopRelay(id: string): void {
  execFileSync('docker', ['exec', '-u', '0:0', id, 'pkill', '-STOP', '-f', 'exec_relay']);
}

/**
 * The loop's processes (bash running it), agent's or checker's: '' when none is left. Root's are
 * left out: the tracer of the command that launched it names the loop in its argv, and it is still
 * on its way out a moment after its last tracee was killed (the late traces wait for it).
 */
async function loops(): Promise<string> {
  const r = await asRoot(sb, "ps -eo pid=,user=,stat=,args= | grep 'kill -STOP' | grep -v grep || true");
  return r.stdout
    .split('\n')
    .filter((line) => line.trim() !== '' && line.trim().split(/\s+/)[1] !== 'root')
    .join('\n');
}

describe.sequential("an agent's kill -STOP -1 loop", () => {
  it('cannot stop the file tools, the kill, the harness execs or the reset', async () => {
    await sb.runCommand(LAUNCH, 20_000);
    await settle();
    expect(await loops()).toMatch(/agent/);
    // The file tools run as root with the agent's file identity: nothing of the agent's to stop.
    const written = await bounded(() => sb.writeFile('during.txt', 'written while the loop runs\n'));
    expect(written.value).toMatchObject({ ok: true, path: '/workspace/during.txt' });
    const read = await bounded(() => sb.readFile('during.txt'));
    expect(read.value).toMatchObject({ ok: true, content: 'written while the loop runs\n' });
    expect((await bounded(() => asRoot(sb, 'echo root is fine'))).value.stdout).toBe('root is fine\n');
    await bounded(() => sb.killAgentProcesses());
    expect(await loops()).toBe('');
    expect(await agentProcesses(sb)).toBe('');
    expect((await sb.runCommand('echo alive', 10_000)).stdout).toBe('alive\n');
  }, 300_000);

  // A traced loop flips between running and tracing stop as it is read; the kill read its status
  // line by line, the lines shifted under it, and about one kill in six missed it (a CI run caught
  // it; ten rounds catch it most times).
  it('is killed every time, though its state changes while the kill reads it', async () => {
    const launch = LAUNCH.replace('sleep 2;', 'sleep 0.5;');
    for (let round = 0; round < 10; round++) {
      await sb.runCommand(launch, 20_000);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await loops()).toMatch(/agent/);
      await sb.killAgentProcesses();
      expect(await agentProcesses(sb), `round ${round}`).toBe('');
    }
  }, 300_000);

  it('does not stall a reset either, in the same container', async () => {
    await sb.runCommand(LAUNCH, 20_000);
    await settle();
    expect(await loops()).toMatch(/agent/);
    const id = sb.id;
    await bounded(() => sb.reset());
    expect(sb.id).toBe(id);
    expect(await loops()).toBe('');
    expect((await sb.runCommand('echo fresh', 10_000)).stdout).toBe('fresh\n');
  }, 300_000);
});

describe.sequential("a checker's kill -STOP -1 loop (agent code run by a check)", () => {
  it('cannot stop the kill of every process, nor the reset', async () => {
    await asChecker(sb, LAUNCH);
    await settle();
    expect(await loops()).toMatch(/checker/);
    await bounded(() => sb.killAllProcesses());
    expect(await loops()).toBe('');
    expect(await otherProcesses(sb)).toBe('');
    await asChecker(sb, LAUNCH);
    await settle();
    await bounded(() => sb.reset());
    expect(await loops()).toBe('');
  }, 300_000);
});

describe.sequential('an exec that stalls inside the container', () => {
  it('is an ExecStalled naming the user, with the engine answering; the container is abandoned and replaced', async () => {
    const other = await openSandbox();
    try {
      const id = other.id;
      expect((await other.exec(['true'], { user: 'checker', cwd: '/' })).exitCode).toBe(0);
      stopRelay(id);
      const started = Date.now();
      const stalled = await other
        .exec(['true'], { user: 'checker', cwd: '/', timeoutMs: 1_000 })
        .catch((e) => e);
      expect(stalled).toBeInstanceOf(ExecStalled);
      expect(stalled).toMatchObject({ user: 'checker', engineAnswered: true });
      expect(Date.now() - started).toBeLessThan(BOUND_MS);
      expect(other.tainted).toBe(true);
      const container = docker.getContainer(id);
      // Abandoned: its removal runs in the background already, without waiting for a reset.
      await expect
        .poll(
          () =>
            container.inspect().then(
              () => 'there',
              (e) => e.statusCode,
            ),
          { timeout: 45_000 },
        )
        .toBe(404);
      await bounded(() => other.reset());
      expect(other.id).not.toBe(id);
      expect((await other.runCommand('echo fresh', 10_000)).stdout).toBe('fresh\n');
    } finally {
      await other.dispose();
    }
  }, 300_000);

  it("a file tool's stall is the agent's", async () => {
    const { stalled } = await fileToolStall;
    expect(stalled).toBeInstanceOf(ExecStalled);
    expect(stalled).toMatchObject({ user: 'agent', engineAnswered: true });
    expect((stalled as ExecStalled).message).toMatch(/did not finish .* within 30 s/);
  }, 300_000);
});
