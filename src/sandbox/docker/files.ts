/**
 * The agent's read_file / write_file tools. Both run as the agent user, so the kernel decides what
 * the agent may touch (a write to /etc fails exactly as it would from its shell). Bytes never pass
 * through a shell: writes go in as a tar stream on stdin to an exec'd `tar -x` (tmpfs mounts are
 * invisible to Docker's archive API); reads come back as raw bytes from `dd`, only the requested
 * range, so a 100 MB file costs what its first 64 KiB cost.
 */
import { errorMessage } from '../../util/errors.js';
import type { ReadFileResult, WriteFileResult } from '../types.js';
import { AGENT_UID } from './container.js';
import { resolvePath } from './paths.js';
import type { RawRunner } from './raw-runner.js';
import { packTar } from './tar.js';

const DEFAULT_READ_LIMIT = 64 * 1024;
const MAX_READ_LIMIT = 16 * 1024 * 1024;

// Keeps the mode of a file it replaces (an edited script stays executable); tar alone would not.
const WRITE_SCRIPT = `p=$1
m=
if [ -f "$p" ] && [ ! -L "$p" ]; then m=$(stat -c %a -- "$p"); fi
tar -x -f - -C / --no-same-owner || exit 1
if [ -n "$m" ]; then chmod "$m" -- "$p"; fi
`;

// stdout: the size in bytes, a newline, then the requested range.
const READ_SCRIPT = `p=$1
if [ -d "$p" ]; then echo "is a directory" >&2; exit 2; fi
if [ ! -e "$p" ]; then echo "no such file" >&2; exit 2; fi
if [ ! -f "$p" ]; then echo "not a regular file" >&2; exit 2; fi
{ exec 3<"$p"; } 2>/dev/null || { echo "permission denied" >&2; exit 2; }
stat -L -c %s /dev/fd/3
dd bs=65536 iflag=skip_bytes,count_bytes skip="$2" count="$3" status=none <&3
`;

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
  const tar = await packTar([{ path: abs, type: 'file', mode: 0o644, uid: AGENT_UID, content }]);
  const r = await run({
    argv: ['/bin/bash', '-c', WRITE_SCRIPT, 'write', abs],
    user: 'agent',
    stdin: tar,
    maxStdoutBytes: 4096,
    maxStderrBytes: 4096,
  });
  if (r.exitCode === 0) return { ok: true, path: abs, bytes: content.length };
  return { ok: false, path: abs, error: `cannot write ${abs}: ${tarReason(r.stderr.toString('utf8'))}` };
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
    argv: ['/bin/bash', '-c', READ_SCRIPT, 'read', abs, String(offset), String(limit)],
    user: 'agent',
    maxStdoutBytes: limit + 64,
    maxStderrBytes: 4096,
  });
  const nl = r.stdout.indexOf(0x0a);
  if (r.exitCode !== 0 || nl < 0) {
    const why =
      r.stderr.toString('utf8').trim().split('\n')[0] || `read failed (exit ${r.exitCode ?? 'unknown'})`;
    return { ok: false, path: abs, error: `cannot read ${abs}: ${why}` };
  }
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

/** GNU tar's reason, without its "tar: member:" prefix and its closing summary line. */
function tarReason(stderr: string): string {
  const line = stderr.split('\n').find((l) => l.trim() !== '' && !l.includes('Exiting with failure status'));
  if (line === undefined) return 'tar failed';
  const parts = line.replace(/^tar: /, '').split(': ');
  return parts.length > 1 ? parts.slice(1).join(': ') : (parts[0] ?? line);
}
