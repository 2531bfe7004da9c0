/**
 * A second Docker engine for tests, on its own socket (and a loopback TCP port), with its own data
 * root, exec root and containerd, beside the machine's main engine: what `--docker-host` talks to in
 * place of a remote machine's engine. No bridge, no iptables rules, no networks: sandboxes run with
 * `--network none` anyway. Needs root and dockerd; whyNoSecondEngine() says why not, for a skip.
 * stop() kills the dockerd this helper started (by its pid) and removes its folders.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const SOCKET = '/run/ab-docker2.sock';
const DATA_ROOT = '/var/lib/ab-docker2';
const EXEC_ROOT = '/run/ab-docker2';
const PID_FILE = '/run/ab-docker2.pid';
const LOG = '/tmp/ab-docker2.log';

export interface SecondEngine {
  /** `unix:///run/ab-docker2.sock` */
  unix: string;
  /** `tcp://127.0.0.1:PORT` */
  tcp: string;
  /** Copies an image of the main engine into this one (`docker save | docker -H ... load`). */
  load(tag: string): void;
  /** `docker -H <this engine> ARGS`, its stdout. */
  docker(args: readonly string[]): string;
  stop(): Promise<void>;
}

/** null when a second engine can be started here; else why not, for the skip message. */
export function whyNoSecondEngine(): string | null {
  if (process.getuid?.() !== 0) return 'needs root to start a second dockerd';
  const onPath = (name: string): boolean =>
    (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, name)));
  if (!onPath('dockerd')) return 'dockerd is not installed';
  if (!onPath('docker')) return 'the docker CLI is not installed';
  return null;
}

export async function startSecondEngine(o: { tcpPort: number }): Promise<SecondEngine> {
  stopLeftover();
  const tcp = `tcp://127.0.0.1:${o.tcpPort}`;
  const log = openSync(LOG, 'w');
  let child: ChildProcess;
  try {
    child = spawn(
      'dockerd',
      [
        `--host=unix://${SOCKET}`,
        `--host=${tcp}`,
        `--data-root=${DATA_ROOT}`,
        `--exec-root=${EXEC_ROOT}`,
        `--pidfile=${PID_FILE}`,
        '--bridge=none',
        '--iptables=false',
        '--ip6tables=false',
      ],
      { stdio: ['ignore', log, log] },
    );
  } finally {
    closeSync(log);
  }
  let exited: string | null = null;
  child.on('exit', (code, signal) => {
    exited = `dockerd exited (${signal ?? code})`;
  });
  const docker = (args: readonly string[]): string =>
    execFileSync('docker', ['-H', `unix://${SOCKET}`, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  const stop = async (): Promise<void> => {
    if (exited === null && child.pid !== undefined) {
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await gone;
      clearTimeout(timer);
    }
    stopLeftover();
    rmSync(SOCKET, { force: true });
    rmSync(EXEC_ROOT, { recursive: true, force: true });
    rmSync(DATA_ROOT, { recursive: true, force: true });
  };

  const started = Date.now();
  for (;;) {
    if (exited !== null) throw new Error(`${exited} before it answered; its log:\n${tail(LOG)}`);
    try {
      docker(['version', '--format', '{{.Server.Version}}']);
      break;
    } catch {
      if (Date.now() - started > 60_000) {
        await stop();
        throw new Error(`the second dockerd did not answer within 60 s; its log:\n${tail(LOG)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return {
    unix: `unix://${SOCKET}`,
    tcp,
    load(tag) {
      execFileSync(
        'bash',
        ['-o', 'pipefail', '-c', `docker save "$1" | docker -H "$2" load`, 'load', tag, `unix://${SOCKET}`],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    },
    docker,
    stop,
  };
}

/** A dockerd of an earlier test run that crashed before its stop(): found by its pid file, stopped. */
function stopLeftover(): void {
  for (const pidFile of [PID_FILE, join(EXEC_ROOT, 'containerd/containerd.pid')]) {
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) : Number.NaN;
    // Only ours: a process started with this helper's folders on its command line.
    if (Number.isInteger(pid) && pid > 1 && commandLine(pid).includes(EXEC_ROOT)) {
      process.kill(pid, 'SIGTERM');
      const until = Date.now() + 20_000;
      while (commandLine(pid) !== '' && Date.now() < until) execFileSync('sleep', ['0.2']);
      if (commandLine(pid) !== '') process.kill(pid, 'SIGKILL');
    }
  }
  rmSync(PID_FILE, { force: true });
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}
