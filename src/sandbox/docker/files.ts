/**
 * The agent's read_file / write_file tools, done by sandbox/relay/file_tool.py: a root process (a
 * thread of the relay, or an engine exec as root without one) acting on files with the agent's
 * filesystem identity. The kernel decides what the agent may touch exactly as for its shell (a
 * write to /etc fails, what it creates is the agent's), yet no process of the agent's uid is
 * involved: nothing the agent runs can signal the tool, so a stopped file tool is not the agent's
 * to cause. Bytes never pass through a shell; reads come back as the requested range only, so a
 * 100 MB file costs what its first 64 KiB cost.
 */
import { errorMessage } from '../../util/errors.js';
import { RELAY_DIR, tool } from '../tools.js';
import type { ReadFileResult, SandboxUser, WriteFileResult } from '../types.js';
import { resolvePath } from './paths.js';
import type { RawExecRequest } from './raw-exec.js';
import type { RawRunner } from './raw-runner.js';
import { uidOf } from './users.js';

const DEFAULT_READ_LIMIT = 64 * 1024;
const MAX_READ_LIMIT = 16 * 1024 * 1024;
/** A file tool has no business taking long: past this the tool has stalled. */
const FILE_TOOL_DEADLINE_MS = 30_000;

/** Loads the tool from where the Dockerfile installs sandbox/relay/ (read-only, root's). */
const BOOT = `import sys; sys.dont_write_bytecode = True
sys.path.insert(0, "${RELAY_DIR}")
import file_tool; file_tool.main()`;

/** The request that runs file_tool's `args` as `user`: in the relay when there is one, else an exec of its own. */
export function fileToolRequest(
  user: SandboxUser,
  args: string[],
): Pick<RawExecRequest, 'argv' | 'fileTool'> & { user: 'root'; actingFor: SandboxUser; deadlineMs: number } {
  return {
    argv: [tool('python3'), '-I', '-S', '-c', BOOT, String(uidOf(user)), ...args],
    user: 'root',
    fileTool: { user, args },
    actingFor: user,
    deadlineMs: FILE_TOOL_DEADLINE_MS,
  };
}

export async function writeAgentFile(
  run: RawRunner,
  cwd: string,
  path: string,
  content: Buffer,
): Promise<WriteFileResult> {
  let abs: string;
  try {
    abs = resolvePath(path, cwd);
  } catch (err) {
    return { ok: false, path, error: errorMessage(err) };
  }
  if (abs === '/') return { ok: false, path: abs, error: 'cannot write to /' };
  const r = await run({
    ...fileToolRequest('agent', ['write', abs]),
    stdin: content,
    maxStdoutBytes: 4096,
    maxStderrBytes: 4096,
  });
  if (r.exitCode === 0) return { ok: true, path: abs, bytes: content.length };
  return { ok: false, path: abs, error: `cannot write ${abs}: ${firstLine(r.stderr, r.exitCode)}` };
}

export async function readAgentFile(
  run: RawRunner,
  cwd: string,
  path: string,
  range: { offset?: number; limit?: number } = {},
): Promise<ReadFileResult> {
  const offset = range.offset ?? 0;
  const requested = range.limit ?? DEFAULT_READ_LIMIT;
  let abs: string;
  try {
    abs = resolvePath(path, cwd);
  } catch (err) {
    return { ok: false, path, error: errorMessage(err) };
  }
  if (!Number.isInteger(offset) || offset < 0)
    return { ok: false, path: abs, error: `bad offset ${offset}: use a whole number >= 0` };
  if (!Number.isInteger(requested) || requested < 1) {
    return { ok: false, path: abs, error: `bad limit ${requested}: use a whole number >= 1` };
  }
  const limit = Math.min(requested, MAX_READ_LIMIT);
  const r = await run({
    ...fileToolRequest('agent', ['read', abs, String(offset), String(limit)]),
    maxStdoutBytes: limit + 64,
    maxStderrBytes: 4096,
  });
  const nl = r.stdout.indexOf(0x0a);
  if (r.exitCode !== 0 || nl < 0)
    return { ok: false, path: abs, error: `cannot read ${abs}: ${firstLine(r.stderr, r.exitCode)}` };
  const totalBytes = Number(r.stdout.subarray(0, nl).toString('latin1'));
  let bytes = r.stdout.subarray(nl + 1);
  const truncated = offset + bytes.length < totalBytes;
  // Stop before a character split by the limit, so the next read starts at a character boundary.
  if (truncated) bytes = bytes.subarray(0, completeUtf8Length(bytes));
  return { ok: true, path: abs, content: bytes.toString('utf8'), totalBytes, offset, truncated };
}

/** Length of the longest prefix that does not end inside a UTF-8 sequence. */
export function completeUtf8Length(bytes: Buffer): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back] as number;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

/** The tool's reason: the first line it wrote to stderr. */
function firstLine(stderr: Buffer, exitCode: number | null): string {
  return stderr.toString('utf8').trim().split('\n')[0] || `failed (exit ${exitCode ?? 'unknown'})`;
}
