/**
 * One `docker exec`, demultiplexed and bounded: argv (no shell unless argv asks for one), optional
 * stdin, a host-side deadline, and byte caps on what is kept. Higher layers (wrapper.ts) add the
 * in-container timeout and head/tail capping; this layer only guarantees it never hangs.
 */
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { InfraError } from '../../util/errors.js';
import type { SandboxUser } from '../types.js';
import { ENGINE_CALL_MS, withDeadline } from './deadline.js';
import { ByteCollector, FrameDemuxer } from './demux.js';
import { engineError, statusOf } from './engine.js';
import { loginEnv, uidOf } from './users.js';

export interface RawExecRequest {
  argv: string[];
  user: SandboxUser;
  /** Whose base environment (HOME, USER) the process gets; defaults to `user`. */
  envUser?: SandboxUser;
  env?: Record<string, string>;
  stdin?: Buffer;
  /** Host-side backstop: past it the stream is dropped and the result says deadlineHit. */
  deadlineMs: number;
  maxStdoutBytes: number;
  maxStderrBytes: number;
  /** Ask the engine for the exit code once the stream ends (default); false: exitCode is null. */
  inspectExit?: boolean;
  /**
   * The request is a file tool (sandbox/relay/file_tool.py): the relay serves it in a thread of
   * its own with `user`'s filesystem identity, no process started; an engine exec runs argv, the
   * same tool in a root process of its own.
   */
  fileTool?: { user: SandboxUser; args: string[] };
}

export interface RawExecResult {
  /** null when the process had not reported one (deadline hit, or the container went away). */
  exitCode: number | null;
  stdout: Buffer;
  stderr: Buffer;
  stdoutDropped: number;
  stderrDropped: number;
  deadlineHit: boolean;
  elapsedMs: number;
  /**
   * Through the relay only (relay.ts): why it gave no result, when it could not start the command
   * or ended before it answered. The command may or may not have run.
   */
  relayProblem?: string;
}

/** The container stopped or vanished under a sandbox: reset() recreates it, nothing else can go on. */
export class ContainerGoneError extends InfraError {}

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The environment every exec starts from; the image's own ENV is not relied on. */
function baseEnv(user: SandboxUser): Record<string, string> {
  return { PATH, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1', ...loginEnv(user) };
}

/** How an exec is run: rawExec on the engine, or a request to the container's relay (relay.ts). */
export type ExecRunner = (req: RawExecRequest) => Promise<RawExecResult>;

/** The variables an exec sets over the container's own (the relay sets the same). */
export function execEnv(req: Pick<RawExecRequest, 'user' | 'envUser' | 'env'>): Record<string, string> {
  return { ...baseEnv(req.envUser ?? req.user), ...req.env };
}

export async function rawExec(container: Docker.Container, req: RawExecRequest): Promise<RawExecResult> {
  const started = performance.now();
  const env = execEnv(req);
  let exec: Docker.Exec;
  let stream: Duplex;
  try {
    const created = await withDeadline(
      (abortSignal) =>
        container.exec({
          Cmd: req.argv,
          User: `${uidOf(req.user)}:${uidOf(req.user)}`,
          Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
          WorkingDir: '/',
          AttachStdin: req.stdin !== undefined,
          AttachStdout: true,
          AttachStderr: true,
          Tty: false,
          abortSignal,
        }),
      ENGINE_CALL_MS,
      'creating an exec',
    );
    exec = created;
    stream = (await withDeadline(
      (abortSignal) => created.start({ hijack: true, stdin: req.stdin !== undefined, abortSignal }),
      ENGINE_CALL_MS,
      'starting an exec',
    )) as Duplex;
  } catch (err) {
    const status = statusOf(err);
    if (status === 404 || status === 409 || status === 500) {
      throw new ContainerGoneError(
        `sandbox container ${container.id.slice(0, 12)} is not running (${describe(err)})`,
        { cause: err },
      );
    }
    throw engineError('exec', err);
  }

  const out = new ByteCollector(req.maxStdoutBytes);
  const err = new ByteCollector(req.maxStderrBytes);
  const demux = new FrameDemuxer((which, payload) => (which === 'stdout' ? out : err).add(payload));
  const deadlineHit = await pump(stream, demux, req);
  const exitCode = deadlineHit || req.inspectExit === false ? null : await exitCodeOf(exec);
  return {
    exitCode,
    stdout: out.bytes(),
    stderr: err.bytes(),
    stdoutDropped: out.dropped,
    stderrDropped: err.dropped,
    deadlineHit,
    elapsedMs: Math.round(performance.now() - started),
  };
}

/** Reads the stream to its end; resolves true if the deadline came first. */
function pump(stream: Duplex, demux: FrameDemuxer, req: RawExecRequest): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    const finish = (hit: boolean, error?: unknown): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.destroy();
      if (error === undefined) resolve(hit);
      else reject(error instanceof InfraError ? error : engineError('reading exec output', error));
    };
    const timer = setTimeout(() => finish(true), req.deadlineMs);
    stream.on('data', (chunk: Buffer) => {
      try {
        demux.push(chunk);
      } catch (e) {
        finish(false, e);
      }
    });
    stream.on('end', () => finish(false));
    stream.on('close', () => finish(false));
    stream.on('error', (e) => finish(false, e));
    if (req.stdin !== undefined) {
      stream.write(req.stdin);
      // Half-close: the process sees EOF on stdin while we keep reading its output.
      stream.end();
    }
  });
}

/** The engine may close the stream a moment before it records the exit code. */
async function exitCodeOf(exec: Docker.Exec): Promise<number | null> {
  for (let i = 0; i < 50; i++) {
    try {
      const info = await withDeadline(
        (abortSignal) => exec.inspect({ abortSignal }),
        ENGINE_CALL_MS,
        'inspecting an exec',
      );
      if (!info.Running) return info.ExitCode ?? null;
    } catch (err) {
      throw engineError('inspecting an exec', err);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return null;
}

function describe(err: unknown): string {
  const json = (err as { json?: { message?: unknown } }).json;
  if (typeof json?.message === 'string') return json.message;
  return err instanceof Error ? err.message : String(err);
}
