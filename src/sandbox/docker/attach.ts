/**
 * A process started in the container with its stdin and stdout kept open for as long as the harness
 * talks to it (an MCP server over stdio): one engine exec, attached, its stream demultiplexed.
 * Unlike rawExec it has no deadline of its own: the caller bounds each exchange and ends it; the
 * sandbox's reset kills it in any case.
 */
import type { Socket } from 'node:net';
import { type Duplex, PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import type { SandboxProcess, SpawnOptions } from '../types.js';
import { ENGINE_CALL_MS, withDeadline } from './deadline.js';
import { FrameDemuxer } from './demux.js';
import { execEnv } from './raw-exec.js';
import { uidOf } from './users.js';

/** What is kept of the process's stderr: the tail says why it died. */
const STDERR_TAIL_BYTES = 4096;

export async function attachProcess(
  container: Docker.Container,
  argv: readonly string[],
  options: SpawnOptions,
): Promise<SandboxProcess> {
  const user = options.user;
  const exec = await withDeadline(
    (abortSignal) =>
      container.exec({
        Cmd: [...argv],
        User: `${uidOf(user)}:${uidOf(user)}`,
        Env: Object.entries(execEnv({ user, env: options.env ?? {} })).map(([k, v]) => `${k}=${v}`),
        WorkingDir: options.cwd,
        AttachStdin: true,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        abortSignal,
      }),
    ENGINE_CALL_MS,
    'creating an attached exec',
  );
  const stream = (await withDeadline(
    (abortSignal) => exec.start({ hijack: true, stdin: true, abortSignal }),
    ENGINE_CALL_MS,
    'starting an attached exec',
  )) as Duplex;
  // An idle server never keeps the harness alive.
  (stream as Partial<Socket>).unref?.();

  const stdout = new PassThrough();
  let stderr = Buffer.alloc(0);
  const demux = new FrameDemuxer((which, payload) => {
    if (which === 'stdout') stdout.write(payload);
    else stderr = Buffer.concat([stderr, payload]).subarray(-STDERR_TAIL_BYTES);
  });
  const exited = new Promise<void>((resolve) => {
    const gone = (): void => {
      stdout.end();
      resolve();
    };
    stream.on('end', gone);
    stream.on('close', gone);
    stream.on('error', gone);
  });
  stream.on('data', (chunk: Buffer) => {
    try {
      demux.push(chunk);
    } catch {
      stream.destroy();
    }
  });
  return {
    write: (bytes) =>
      new Promise<void>((resolve, reject) => stream.write(bytes, (e) => (e ? reject(e) : resolve()))),
    stdout,
    stderrTail: () => stderr.toString('utf8'),
    exited,
    end: () => {
      stream.destroy();
      return exited;
    },
  };
}
