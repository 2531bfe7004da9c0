/**
 * Real llama-server processes for tests: started on a free port of 127.0.0.1 with their output in a
 * log file, waited for until /health says ok, and stopped (SIGTERM, then SIGKILL) by the test that
 * started them. Also: which llama-server processes serve files of a folder (to prove none is left).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/ladder/free-port.js';
import { waitHealthy } from '../../src/ladder/health.js';
import type { LlamaKit } from './llama-kit.js';

/** Flags every test server gets: one thread pair (2 cores shared with Docker), no web UI. */
export const BASE_FLAGS = ['--threads', '2', '--no-webui'];

export interface LlamaServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` */
  root: string;
  pid: number;
  logPath: string;
  log(): Promise<string>;
  /** Resolves with how it ended ("exited with code 0", "was killed by SIGKILL"). */
  exited: Promise<string>;
  /** SIGTERM, then SIGKILL after 5 s; resolves once the process is gone. Safe to call twice. */
  stop(): Promise<string>;
}

export async function startLlamaServer(kit: LlamaKit, model: string, flags: string[]): Promise<LlamaServer> {
  const port = await freePort();
  const root = `http://127.0.0.1:${port}`;
  const logPath = join(await mkdtemp(join(tmpdir(), 'agent-bench-llama-')), 'server.log');
  const log = openSync(logPath, 'a');
  let child: ChildProcess;
  try {
    child = spawn(kit.serverBin, ['-m', model, '--host', '127.0.0.1', '--port', String(port), ...flags], {
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) =>
      resolve(signal === null ? `exited with code ${code}` : `was killed by ${signal}`),
    );
    child.once('error', (err) => resolve(`could not be started (${err.message})`));
  });
  let stopping: Promise<string> | null = null;
  const stop = (): Promise<string> => {
    stopping ??= (async () => {
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 5000);
      try {
        return await exited;
      } finally {
        clearTimeout(late);
      }
    })();
    return stopping;
  };
  const readLog = (): Promise<string> => readFile(logPath, 'utf8');
  const polling = new AbortController();
  const ready = await Promise.race([
    waitHealthy(root, polling.signal).then(() => null),
    exited.then((how) => `llama-server ${how} before it was healthy`),
    sleep(60_000, 'llama-server was not healthy within 60 s', { signal: polling.signal }),
  ]).finally(() => polling.abort());
  if (ready !== null) {
    await stop();
    throw new Error(`${ready}; its log:\n${(await readLog()).slice(-2000)}`);
  }
  if (child.pid === undefined) throw new Error('llama-server has no pid');
  return { baseUrl: `${root}/v1`, root, pid: child.pid, logPath, log: readLog, exited, stop };
}

/** `pid args` of each running llama-server whose command line names `dir` (zombies included). */
export function llamaServersServing(dir: string): string[] {
  const ps = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return ps
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /llama-server/.test(line) && line.includes(dir));
}
