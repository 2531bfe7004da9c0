/**
 * Harness-side file transfer, as tar streams (the archive API cannot see tmpfs mounts). Files are
 * extracted *as their owner*, so the kernel applies that user's own permissions and ownership needs
 * no CHOWN: root's by an exec'd `tar`, the agent's and the checker's by the file tool
 * (sandbox/relay/file_tool.py `put`), a root process with their filesystem identity, which they
 * cannot signal (no exec ever runs as them, see files.ts). Root-owned files carry an
 * explicit directory entry for every ancestor: GNU tar then replaces a symlink the agent planted
 * on the way with a real directory instead of writing through it. (The checker's own places are
 * out of the agent's reach: no link can be planted there.)
 */
import { InfraError } from '../../util/errors.js';
import { TOOLS_ENV, tool } from '../tools.js';
import { type SandboxFile, type SandboxUser, WORKSPACE_DIR } from '../types.js';
import { fileToolRequest } from './files.js';
import { ancestors, resolvePath } from './paths.js';
import type { RawRunner } from './raw-runner.js';
import { packTar, type TarEntry, unpackFiles } from './tar.js';
import { uidOf } from './users.js';

const MAX_GET_BYTES = 512 * 1024 * 1024;

export async function putFiles(run: RawRunner, files: SandboxFile[], owner: SandboxUser): Promise<void> {
  if (files.length === 0) return;
  const uid = uidOf(owner);
  const entries: TarEntry[] = [];
  const dirs = new Set<string>();
  for (const f of files) {
    const path = resolvePath(f.path, WORKSPACE_DIR);
    if (owner === 'root') {
      for (const dir of ancestors(path)) {
        if (!dirs.has(dir)) entries.push({ path: dir, type: 'directory', mode: 0o755, uid });
        dirs.add(dir);
      }
    }
    const content = typeof f.content === 'string' ? Buffer.from(f.content, 'utf8') : f.content;
    entries.push({ path, type: 'file', mode: f.mode ?? 0o644, uid, content });
  }
  const tar = await packTar(entries);
  // Existing directories (the mount points above all) keep their owner and mode; new files are
  // owned by whoever extracts them, so root needs no CHOWN.
  const argv = [tool('tar'), '-x', '-f', '-', '-C', '/', '--no-overwrite-dir', '--no-same-owner'];
  // The harness's own work, whoever owns the files: a stall is not the agent's.
  const how =
    owner === 'root'
      ? { argv, user: 'root' as const }
      : { ...fileToolRequest(owner, ['put']), actingFor: 'root' as const };
  const r = await run({
    ...how,
    stdin: tar,
    maxStdoutBytes: 4096,
    maxStderrBytes: 16 * 1024,
    deadlineMs: 120_000,
  });
  if (r.exitCode !== 0) {
    throw new InfraError(
      `copying ${files.length} file(s) into the sandbox failed: ${r.stderr.toString('utf8').trim().slice(0, 500)}`,
    );
  }
}

// Only regular files reached without any symlink on the way: root must not read through a link
// the agent planted (e.g. /workspace/out -> /harness/secret). --hard-dereference: two hard-linked
// paths both come out as regular files (tar would make the second a link entry, which is dropped).
const GET_SCRIPT = `ok=()
while IFS= read -r -d '' p; do
  if [ -f "$p" ] && [ ! -L "$p" ] && [ "$(readlink -f -- "$p")" = "$p" ]; then ok+=("$p"); fi
done
[ \${#ok[@]} -eq 0 ] && exit 0
printf '%s\\0' "\${ok[@]}" | tar -c -f - -P --no-recursion --hard-dereference --null --verbatim-files-from -T -
`;

/** path (as given) -> bytes, for the regular files among `paths`; others are absent. */
export async function getFiles(run: RawRunner, paths: string[]): Promise<Map<string, Buffer>> {
  const result = new Map<string, Buffer>();
  if (paths.length === 0) return result;
  const wanted = new Map(paths.map((p) => [resolvePath(p, WORKSPACE_DIR), p]));
  const r = await run({
    argv: [tool('bash'), '-c', GET_SCRIPT],
    user: 'root',
    env: TOOLS_ENV,
    stdin: Buffer.from([...wanted.keys()].map((p) => `${p}\0`).join(''), 'utf8'),
    maxStdoutBytes: MAX_GET_BYTES,
    maxStderrBytes: 16 * 1024,
    deadlineMs: 120_000,
  });
  if (r.exitCode !== 0)
    throw new InfraError(
      `copying files out of the sandbox failed: ${r.stderr.toString('utf8').trim().slice(0, 500)}`,
    );
  if (r.stdoutDropped > 0)
    throw new InfraError(`files asked for exceed ${MAX_GET_BYTES} bytes; ask for fewer at a time`);
  for (const [abs, bytes] of await unpackFiles(r.stdout)) {
    const asked = wanted.get(abs);
    if (asked !== undefined) result.set(asked, bytes);
  }
  return result;
}
