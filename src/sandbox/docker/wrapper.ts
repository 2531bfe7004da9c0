/**
 * Host half of the exec wrapper (sandbox/exec-wrapper.sh, which explains why it exists): its
 * argv, and the parser of what its report prints (sandbox/report/exec_report.py).
 */
import { tool, WRAPPER_PATH } from '../tools.js';
import type { SandboxUser } from '../types.js';

export interface WrapperArgs {
  timeoutMs: number;
  headBytes: number;
  tailBytes: number;
  cwd: string;
  user: SandboxUser;
  trackCwd: boolean;
  feedStdin: boolean;
  /** Run the command under strace; its trace comes back after the header. */
  trace: boolean;
  /** Snapshot the workspace after the command (a spec from WorkspaceView); null: no snapshot. */
  snapshot: string | null;
}

export function wrapperArgv(args: WrapperArgs, command: string[]): string[] {
  return [
    tool('bash'),
    WRAPPER_PATH,
    (args.timeoutMs / 1000).toFixed(3),
    String(args.headBytes),
    String(args.tailBytes),
    args.cwd,
    args.user,
    args.trackCwd ? '1' : '0',
    args.feedStdin ? '1' : '0',
    args.trace ? '1' : '0',
    args.snapshot ?? '-',
    ...command,
  ];
}

export interface WrapperHeader {
  exitCode: number;
  timedOut: boolean;
  stdoutSize: number;
  stderrSize: number;
  /** Final working directory reported by a cwd-tracking command, or null. */
  cwd: string | null;
  /** The output mount was (nearly) full when the command started: output may be missing. */
  outputFull: boolean;
  /** Bytes of trace that follow the header; null when the command was not traced. */
  traceSize: number | null;
  /** The trace reached the wrapper's cap (the tracer stopped there). */
  traceCut: boolean;
  /** Bytes of workspace snapshot that follow the trace; null when none was asked for. */
  snapshotSize: number | null;
  /** An agent's command: pids of the agent's processes still running after it; null when not looked. */
  aliveAfter: number[] | null;
}

/** The wrapper's cap on a trace (sandbox/exec-wrapper.sh, trace_cap). */
export const TRACE_CAP_BYTES = 4 * 1024 * 1024;

const HEADER =
  /^agent-bench-exec (\d+) ([01]) (\d+) (\d+) (\S+) ([01]) (\d+|-) ([01]) (\d+|-) (-|none|\d+(?:,\d+)*)$/;

export interface WrapperOutput {
  header: WrapperHeader;
  /** The raw strace output (null when not traced). */
  trace: Buffer | null;
  /** The workspace snapshot (snapshot.ts parses it); null when none was asked for. */
  snapshot: Buffer | null;
  /** The command's capped stdout. */
  body: Buffer;
}

/** Splits the wrapper's stdout into header, trace, snapshot and the command's (capped) stdout; null without a header. */
export function parseWrapperOutput(stdout: Buffer): WrapperOutput | null {
  const nl = stdout.indexOf(0x0a);
  if (nl < 0) return null;
  const m = HEADER.exec(stdout.subarray(0, nl).toString('latin1'));
  if (m === null) return null;
  const [, rc, timed, osz, esz, cwd, full, tsz, tcut, ssz, alive] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const traceSize = tsz === '-' ? null : Number(tsz);
  const snapshotSize = ssz === '-' ? null : Number(ssz);
  const rest = stdout.subarray(nl + 1);
  const framed = (traceSize ?? 0) + (snapshotSize ?? 0);
  // Fewer bytes than announced means the stream was cut: no header to trust either.
  if (rest.length < framed) return null;
  const decoded = cwd === '-' ? null : Buffer.from(cwd, 'base64').toString('utf8').replace(/\n$/, '');
  return {
    header: {
      exitCode: Number(rc),
      timedOut: timed === '1',
      stdoutSize: Number(osz),
      stderrSize: Number(esz),
      cwd: decoded?.startsWith('/') ? decoded : null,
      outputFull: full === '1',
      traceSize,
      traceCut: tcut === '1',
      snapshotSize,
      aliveAfter: alive === '-' ? null : alive === 'none' ? [] : alive.split(',').map(Number),
    },
    trace: traceSize === null ? null : rest.subarray(0, traceSize),
    snapshot: snapshotSize === null ? null : rest.subarray(traceSize ?? 0, framed),
    body: rest.subarray(framed),
  };
}
