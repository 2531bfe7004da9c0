/** The `--server-cmd` lifecycle against a fake llama-server: healthy, slow, never healthy, dead at once. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { groupAlive } from '../../src/ladder/process-group.js';
import {
  ServerStartError,
  type ServerStartOptions,
  startModelServer,
} from '../../src/ladder/server-process.js';
import { InterruptedError } from '../../src/util/errors.js';
import { fakeServerCmd, gone, loggedPid } from './fake-server.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ladder-server-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let n = 0;
function options(command: string, extra: Partial<ServerStartOptions> = {}): ServerStartOptions {
  n++;
  return {
    command,
    modelPath: `/models/tiny ${n}-Q4_K_M.gguf`,
    logPath: join(dir, 'servers', `server-${n}.log`),
    startTimeoutMs: 10_000,
    graceMs: 2000,
    apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
    ...extra,
  };
}

async function failure(o: ServerStartOptions): Promise<ServerStartError> {
  const err = await startModelServer(o).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof ServerStartError)) throw new Error(`expected ServerStartError, got ${String(err)}`);
  return err;
}

describe.sequential('startModelServer', () => {
  it('starts the server, waits out its loading, finds the model, serves, and stops the whole group', async () => {
    const exitHooks = process.listenerCount('exit');
    const o = options(fakeServerCmd('--load-ms 700'));
    const started = Date.now();
    const server = await startModelServer(o);
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.modelName).toBe(`tiny ${n}-Q4_K_M.gguf`);
    // While it runs, a crash of agent-bench would still kill it.
    expect(process.listenerCount('exit')).toBe(exitHooks + 1);
    const reply = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: server.modelName, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(((await reply.json()) as { choices: unknown[] }).choices).toHaveLength(1);
    expect(server.ended()).toBeNull();

    expect(await server.stop()).toBe('terminated');
    expect(await server.stop()).toBe('terminated'); // idempotent
    expect(gone(server.pgid)).toBe(true);
    expect(process.listenerCount('exit')).toBe(exitHooks);
    const log = await readFile(o.logPath, 'utf8');
    expect(log).toContain(`loading model '/models/tiny ${n}-Q4_K_M.gguf'`); // the path arrived as one argument
    expect(log).toContain('SIGTERM, shutting down');
  });

  it('a server without /health is ready when /v1/models answers', async () => {
    const server = await startModelServer(options(fakeServerCmd('--no-health')));
    expect(server.modelName).toMatch(/Q4_K_M\.gguf$/);
    await server.stop();
    expect(gone(server.pgid)).toBe(true);
  });

  it('a server that exits before it is healthy fails at once with its last log lines', async () => {
    const o = options(fakeServerCmd('--exit-at-once 3'), { startTimeoutMs: 60_000 });
    const started = Date.now();
    const err = await failure(o);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(err.why).toBe('exited');
    expect(err.message).toMatch(/exited with code 3 before it was healthy/);
    expect(err.logTail).toContain('main: exiting due to model loading error');
    expect(err.message).toContain('  | error: failed to load model');
    expect(gone(loggedPid(await readFile(o.logPath, 'utf8')))).toBe(true);
  });

  it('a command that does not exist is a start failure, with the shell saying why', async () => {
    const err = await failure(options('no-such-llama-server-xyz -m {model} --port {port}'));
    expect(err.message).toMatch(/exited with code 127/);
    expect(err.logTail.join('\n')).toMatch(/command not found/);
  });

  it('a server that never becomes healthy is stopped at the start timeout', async () => {
    const o = options(fakeServerCmd('--never-healthy'), { startTimeoutMs: 1500 });
    const err = await failure(o);
    expect(err.why).toBe('timeout');
    expect(err.message).toMatch(/was not healthy within 1.5 s: stopped/);
    expect(gone(loggedPid(await readFile(o.logPath, 'utf8')))).toBe(true);
  });

  it('a server that ignores SIGTERM is killed after the grace period, children included', async () => {
    // `sleep` is a second member of the group; the server itself ignores SIGTERM.
    const o = options(`sleep 300 & exec ${fakeServerCmd('--ignore-term')}`, { graceMs: 500 });
    const server = await startModelServer(o);
    expect(await server.stop()).toBe('killed');
    expect(groupAlive(server.pgid)).toBe(false);
    expect(gone(server.pgid)).toBe(true);
    expect(await readFile(o.logPath, 'utf8')).toContain('SIGTERM ignored');
  });

  it('an abort while the server loads stops it and says interrupted', async () => {
    const abort = new AbortController();
    const o = options(fakeServerCmd('--never-healthy'), { startTimeoutMs: 60_000, signal: abort.signal });
    const starting = startModelServer(o);
    // Abort once the server is up and loading (it has logged its pid), however slow the machine.
    const pid = await vi.waitUntil(
      async () => /fake-llama-server: pid \d+/.test(await readFile(o.logPath, 'utf8').catch(() => '')),
      { timeout: 30_000, interval: 50 },
    );
    expect(pid).toBe(true);
    abort.abort(new InterruptedError('SIGINT'));
    await expect(starting).rejects.toBeInstanceOf(InterruptedError);
    expect(gone(loggedPid(await readFile(o.logPath, 'utf8')))).toBe(true);
  });
});
