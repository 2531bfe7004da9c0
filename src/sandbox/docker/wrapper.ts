/**
 * Host half of the exec wrapper (sandbox/exec-wrapper.sh, which explains why it exists): its
 * argv, and the parser of its header line.
 */
import type { SandboxUser } from '../types.js';

/** Where the Dockerfile installs sandbox/exec-wrapper.sh (read-only, root-owned). */
export const WRAPPER_PATH = '/usr/local/lib/agent-bench/exec-wrapper';

export interface WrapperArgs {
  timeoutMs: number;
  headBytes: number;
  tailBytes: number;
  cwd: string;
  user: SandboxUser;
  trackCwd: boolean;
  feedStdin: boolean;
}

export function wrapperArgv(args: WrapperArgs, command: string[]): string[] {
  return [
    '/bin/bash',
    WRAPPER_PATH,
    (args.timeoutMs / 1000).toFixed(3),
    String(args.headBytes),
    String(args.tailBytes),
    args.cwd,
    args.user,
    args.trackCwd ? '1' : '0',
    args.feedStdin ? '1' : '0',
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
}

const HEADER = /^agent-bench-exec (\d+) ([01]) (\d+) (\d+) (\S+) ([01])$/;

/** Splits the wrapper's stdout into its header and the command's (capped) stdout; null if there is no header. */
export function parseWrapperOutput(stdout: Buffer): { header: WrapperHeader; body: Buffer } | null {
  const nl = stdout.indexOf(0x0a);
  if (nl < 0) return null;
  const m = HEADER.exec(stdout.subarray(0, nl).toString('latin1'));
  if (m === null) return null;
  const [, rc, timed, osz, esz, cwd, full] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const decoded = cwd === '-' ? null : Buffer.from(cwd, 'base64').toString('utf8').replace(/\n$/, '');
  return {
    header: {
      exitCode: Number(rc),
      timedOut: timed === '1',
      stdoutSize: Number(osz),
      stderrSize: Number(esz),
      cwd: decoded?.startsWith('/') ? decoded : null,
      outputFull: full === '1',
    },
    body: stdout.subarray(nl + 1),
  };
}
