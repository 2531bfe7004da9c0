/**
 * One model server per GGUF file (`--server-cmd`): spawned through bash in its own process group with
 * its output in a log file, waited for until healthy, and stopped (SIGTERM, then SIGKILL) whatever
 * happens: a failed start, an error, Ctrl-C, or agent-bench itself exiting.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkServer } from '../models/probe.js';
import { errorMessage, InfraError, InterruptedError } from '../util/errors.js';
import { freePort } from './free-port.js';
import { waitHealthy } from './health.js';
import { logTail } from './log-tail.js';
import { type StopOutcome, signalGroup, stopGroup } from './process-group.js';
import type { RungConfig } from './rung-config.js';
import { serverCommandLine } from './server-command.js';

export interface ServerStartOptions {
  /** The `--server-cmd` template, already checked. */
  command: string;
  modelPath: string;
  /** The rung's `{ctx}` and `{cache_type}` (absent: the template has neither). */
  config?: RungConfig;
  logPath: string;
  startTimeoutMs: number;
  /** From SIGTERM to SIGKILL when stopping. */
  graceMs?: number;
  apiKeyEnv: string;
  signal?: AbortSignal;
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** The model as the server lists it in `/v1/models`. */
  modelName: string;
  /** The process group id (the spawned shell's pid). */
  pgid: number;
  /** How the server ended on its own (`exited with code 1`), or null while it runs. */
  ended(): string | null;
  /** Stops the whole group; safe to call twice. */
  stop(): Promise<StopOutcome>;
}

/** A server that never became usable: the ladder records it on the model's rung and goes on. */
export class ServerStartError extends InfraError {
  readonly why: 'exited' | 'timeout' | 'unusable';
  readonly logTail: string[];
  constructor(message: string, why: ServerStartError['why'], tail: string[], options?: { cause?: unknown }) {
    super(tail.length === 0 ? message : `${message}\n${tail.map((l) => `  | ${l}`).join('\n')}`, options);
    this.why = why;
    this.logTail = tail;
  }
}

export async function startModelServer(o: ServerStartOptions): Promise<ModelServer> {
  const port = await freePort();
  const root = `http://127.0.0.1:${port}`;
  const child = await spawnLogged(serverCommandLine(o.command, o.modelPath, port, o.config), o.logPath);
  let ended: string | null = null;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) =>
      resolve(signal === null ? `exited with code ${code}` : `was killed by ${signal}`),
    );
    child.once('error', (err) => resolve(`could not be started (${err.message})`));
  }).then((how) => (ended = how));
  const what = `model server for ${o.modelPath}`;
  const pgid = child.pid;
  if (pgid === undefined) throw new ServerStartError(`${what} ${await exited}`, 'exited', []);

  // Whatever ends agent-bench (an uncaught error, process.exit) must not leave a server holding the GPU.
  const killNow = (): void => signalGroup(pgid, 'SIGKILL');
  process.on('exit', killNow);
  let stopping: Promise<StopOutcome> | null = null;
  const stop = (): Promise<StopOutcome> => {
    stopping ??= stopGroup(pgid, o.graceMs ?? 5000).then(async (outcome) => {
      process.off('exit', killNow);
      // Once the group is gone the shell has exited too; waiting for node to reap it means that when
      // stop() resolves, not even a zombie of ours is left.
      if (outcome !== 'lingering') await exited;
      return outcome;
    });
    return stopping;
  };

  const fail = async (message: string, why: ServerStartError['why'], cause?: unknown): Promise<never> => {
    await stop();
    const tail = await logTail(o.logPath);
    throw new ServerStartError(`${what} ${message} (log: ${o.logPath})`, why, tail, { cause });
  };
  let readiness: Readiness;
  try {
    readiness = await untilReady(root, exited, o.startTimeoutMs, o.signal);
  } catch (err) {
    await stop();
    throw err;
  }
  if (!readiness.ready) return fail(readiness.detail, readiness.why);
  try {
    const [modelName] = await checkServer(`${root}/v1`, { apiKeyEnv: o.apiKeyEnv, timeoutMs: 10_000 });
    if (modelName === undefined) return fail('is healthy but lists no model', 'unusable');
    return { baseUrl: `${root}/v1`, modelName, pgid, ended: () => ended, stop };
  } catch (err) {
    if (err instanceof ServerStartError) throw err;
    return fail(`is healthy but its model list is unusable: ${errorMessage(err)}`, 'unusable', err);
  }
}

async function spawnLogged(commandLine: string, logPath: string): Promise<ChildProcess> {
  await mkdir(dirname(logPath), { recursive: true });
  const log = openSync(logPath, 'a');
  try {
    // detached: a new process group (and session), so the group can be signalled as one and a
    // terminal's Ctrl-C reaches only agent-bench, which then stops the server itself.
    return spawn('bash', ['-c', commandLine], { detached: true, stdio: ['ignore', log, log] });
  } finally {
    closeSync(log); // The child holds its own copy.
  }
}

type Readiness = { ready: true } | { ready: false; why: 'exited' | 'timeout'; detail: string };

/** Healthy, exited first, or out of time; an abort of `signal` throws InterruptedError. */
async function untilReady(
  root: string,
  exited: Promise<string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Readiness> {
  const polling = new AbortController();
  const onAbort = (): void => polling.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      waitHealthy(root, polling.signal).then((): Readiness => ({ ready: true })),
      exited.then(
        (how): Readiness => ({ ready: false, why: 'exited', detail: `${how} before it was healthy` }),
      ),
      new Promise<Readiness>((resolve) => {
        const detail = `was not healthy within ${timeoutMs / 1000} s: stopped`;
        timer = setTimeout(() => resolve({ ready: false, why: 'timeout', detail }), timeoutMs);
      }),
    ]);
  } catch (err) {
    // waitHealthy rejects only when `signal` aborted.
    throw new InterruptedError('interrupted while the model server was starting', { cause: err });
  } finally {
    clearTimeout(timer);
    polling.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}
