/** Managed exec: the wrapper (wrapper.ts) inside, a host deadline a few seconds later outside. */
import type Docker from 'dockerode';
import { InternalError } from '../../util/errors.js';
import { parseTrace } from '../trace/parse.js';
import type { ExecResult, ExecTrace, SandboxUser } from '../types.js';
import { containerState } from './container.js';
import {
  ContainerGoneError,
  type ExecRunner,
  type RawExecRequest,
  type RawExecResult,
  rawExec,
} from './raw-exec.js';
import { MAX_LISTING_BYTES } from './snapshot.js';
import {
  parseWrapperOutput,
  TRACE_CAP_BYTES,
  type WrapperHeader,
  type WrapperOutput,
  wrapperArgv,
} from './wrapper.js';

export const DEFAULT_EXEC_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024;
/** How long after the in-container timeout the host gives up on the stream. */
const HOST_GRACE_MS = 5_000;
/** Share of the cap kept from the head: causes tend to print first, summaries last. */
const HEAD_SHARE = 0.6;

export interface ManagedExecRequest {
  argv: string[];
  user: SandboxUser;
  cwd: string;
  timeoutMs: number;
  maxOutputBytes: number;
  env?: Record<string, string>;
  stdin?: Buffer;
  /** Give the command fd 3, open on a file for it to write its final working directory into. */
  trackCwd?: boolean;
  /** Run it under strace and return what it ran (result.trace). */
  trace?: boolean;
  /** Snapshot the workspace once the command is over (result.snapshot): the walk's spec and budget. */
  snapshot?: { spec: string; budgetMs: number };
}

export interface ManagedExecResult extends ExecResult {
  /** Working directory the command reported (trackCwd only), or null. */
  cwdAfter: string | null;
  /**
   * The host backstop fired (the process may still run inside) or the wrapper failed: the
   * container is suspect and gets replaced at the next reset.
   */
  suspect: boolean;
  /** The host's deadline passed with no answer (suspect too): the sandbox reports a stall. */
  deadlineMissed: boolean;
  /** The snapshot's listing as the wrapper printed it (snapshot.ts reads it); null if none came. */
  snapshot: Buffer | null;
  /** An agent's command: its survivors, as the wrapper saw them (CommandResult.aliveAfter). */
  aliveAfter?: number[];
}

export async function managedExec(
  container: Docker.Container,
  req: ManagedExecRequest,
  run: ExecRunner = (r) => rawExec(container, r),
): Promise<ManagedExecResult> {
  validate(req);
  const headBytes = Math.ceil(req.maxOutputBytes * HEAD_SHARE);
  const raw = await run(wrapperRequest(req, headBytes));
  if (raw.deadlineHit) {
    const waited = Math.round(hostDeadlineMs(req) / 1000);
    return {
      ...failed(
        raw.elapsedMs,
        `no answer from the sandbox within ${waited} s; the command was abandoned`,
        true,
      ),
      deadlineMissed: true,
    };
  }
  const parsed = parseWrapperOutput(raw.stdout);
  if (parsed === null) return wrapperFailed(container, raw);
  return resultOf(parsed, raw, req, headBytes);
}

/** The host's deadline: the in-container timeout, a grace, and the snapshot's budget. */
function hostDeadlineMs(req: ManagedExecRequest): number {
  return req.timeoutMs + HOST_GRACE_MS + (req.snapshot?.budgetMs ?? 0);
}

/** The exec that runs the wrapper, which runs the command under its timeout and caps. */
function wrapperRequest(req: ManagedExecRequest, headBytes: number): RawExecRequest {
  const argv = wrapperArgv(
    {
      timeoutMs: req.timeoutMs,
      headBytes,
      tailBytes: req.maxOutputBytes - headBytes,
      cwd: req.cwd,
      user: req.user,
      trackCwd: req.trackCwd === true,
      feedStdin: req.stdin !== undefined,
      trace: req.trace === true,
      snapshot: req.snapshot?.spec ?? null,
    },
    req.argv,
  );
  // The wrapper runs as root (the agent cannot kill it) and switches to req.user for the command.
  return {
    argv,
    user: 'root',
    envUser: req.user,
    ...(req.env === undefined ? {} : { env: req.env }),
    ...(req.stdin === undefined ? {} : { stdin: req.stdin }),
    deadlineMs: hostDeadlineMs(req),
    // The header line is small; anything past the caps is a protocol failure, never kept.
    maxStdoutBytes:
      req.maxOutputBytes +
      16 * 1024 +
      (req.trace === true ? TRACE_CAP_BYTES : 0) +
      (req.snapshot === undefined ? 0 : MAX_LISTING_BYTES),
    maxStderrBytes: req.maxOutputBytes,
    // The header carries the command's exit code; asking the engine for the wrapper's costs a round trip.
    inspectExit: false,
  };
}

/**
 * No header from the wrapper: the container stopped under it, or the wrapper itself failed
 * (typically: no process slot left to fork). The latter is a result saying so rather than an
 * exception: the agent caused it, the harness is fine.
 */
async function wrapperFailed(container: Docker.Container, raw: RawExecResult): Promise<ManagedExecResult> {
  const state = await containerState(container);
  if (!state.running) {
    throw new ContainerGoneError(
      `sandbox container ${container.id.slice(0, 12)} stopped during a command (${state.detail})`,
    );
  }
  const said = Buffer.concat([raw.stdout, raw.stderr])
    .toString('utf8')
    .trim()
    .split('\n')
    .slice(-2)
    .join(' | ');
  return failed(raw.elapsedMs, `the sandbox could not run the command: ${said || 'no output'}`, false);
}

/** The command's own result, as the wrapper reported it. */
function resultOf(
  { header, body, trace, snapshot }: WrapperOutput,
  raw: RawExecResult,
  req: ManagedExecRequest,
  headBytes: number,
): ManagedExecResult {
  const stdout = withCutMarker(body, header.stdoutSize, headBytes);
  const stderr = withCutMarker(raw.stderr, header.stderrSize, headBytes);
  if (header.outputFull) {
    stderr.text +=
      'agent-bench: the output space is full (background processes still writing?); output may be missing\n';
  }
  return {
    exitCode: header.exitCode,
    stdout: stdout.text,
    stderr: stderr.text,
    stdoutCutBytes: stdout.cut,
    stderrCutBytes: stderr.cut,
    timedOut: header.timedOut,
    elapsedMs: raw.elapsedMs,
    cwdAfter: header.cwd,
    suspect: false,
    deadlineMissed: false,
    snapshot,
    ...(trace === null ? {} : { trace: traceOf(trace, header, req.user) }),
    ...(header.aliveAfter === null ? {} : { aliveAfter: header.aliveAfter }),
  };
}

/**
 * The wrapper starts the command from `/` through the harness's own programs: setpriv (unless
 * root) and its `cd` shell. They are no part of what the command ran.
 */
function traceOf(trace: Buffer, header: WrapperHeader, user: SandboxUser): ExecTrace {
  const processes = parseTrace(trace.toString('latin1'), {
    initialCwd: '/',
    harnessExecs: user === 'root' ? 1 : 2,
  });
  return { processes, truncated: header.traceCut };
}

/** A command that produced no result of its own; the container is suspect afterwards. */
function failed(elapsedMs: number, why: string, timedOut: boolean): ManagedExecResult {
  const stderr = `agent-bench: ${why}`;
  return {
    exitCode: null,
    stdout: '',
    stderr,
    stdoutCutBytes: 0,
    stderrCutBytes: 0,
    timedOut,
    elapsedMs,
    cwdAfter: null,
    suspect: true,
    deadlineMissed: false,
    snapshot: null,
  };
}

/** Decodes head+tail bytes, marking where the wrapper cut the middle of a stream of `size` bytes. */
export function withCutMarker(bytes: Buffer, size: number, headBytes: number): { text: string; cut: number } {
  const cut = Math.max(0, size - bytes.length);
  if (cut === 0) return { text: bytes.toString('utf8'), cut: 0 };
  const head = bytes.subarray(0, headBytes).toString('utf8');
  const tail = bytes.subarray(headBytes).toString('utf8');
  return { text: `${head}\n[... ${cut} bytes cut from the middle of this output ...]\n${tail}`, cut };
}

function validate(req: ManagedExecRequest): void {
  if (req.argv.length === 0) throw new InternalError('exec needs a non-empty argv');
  if (!Number.isFinite(req.timeoutMs) || req.timeoutMs <= 0)
    throw new InternalError(`bad exec timeout: ${req.timeoutMs} ms`);
  if (!Number.isInteger(req.maxOutputBytes) || req.maxOutputBytes < 2) {
    throw new InternalError(`bad output cap: ${req.maxOutputBytes} bytes`);
  }
  if ([...req.argv, req.cwd].some((a) => a.includes('\0')))
    throw new InternalError('exec arguments cannot contain NUL bytes');
  for (const [key, value] of Object.entries(req.env ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || value.includes('\0'))
      throw new InternalError(`bad environment variable: ${key}`);
  }
}
