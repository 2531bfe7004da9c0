/**
 * The copy of a skill folder the sandbox mounts read-only at /workspace/skill: every file the agent
 * may see (not the manifest, not .bench/), world-readable, with each stubbed script replaced by its
 * recorder. The copy is named by the skill's digest and the recorders' version, built in a temporary
 * folder and renamed into place, so concurrent runs share one complete copy and never a half-built
 * one; the mount is read-only, so sharing is safe. It lives under the OS temp folder, in a folder
 * only this user can enter (Docker's daemon still can; the container sees only the copy's root);
 * a folder of that name that is a link, or another user's, is refused rather than written through.
 * Files are copied through the folder's own reader, which never follows a link out of the skill.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { mountedFiles, type SkillFolder } from '../manifest/folder.js';
import { errorMessage, InfraError, UsageError } from '../util/errors.js';
import { sha256 } from '../util/hash.js';
import { RECORDER_VERSION, recorderSource, type StubSpec } from './stubs.js';

export function stageSkill(
  folder: SkillFolder,
  digest: string,
  stubs: readonly StubSpec[],
  root = stagingRoot(),
): string {
  const target = join(root, sha256(`${digest} ${RECORDER_VERSION}`).slice(0, 24));
  mkdirSync(root, { recursive: true, mode: 0o700 });
  checkPrivate(root);
  if (existsSync(target)) return target;
  const tmp = mkdtempSync(join(root, 'tmp-'));
  try {
    const stubbed = new Map(stubs.map((s) => [s.script, s]));
    const dirs = new Set<string>([tmp]);
    for (const rel of mountedFiles(folder)) {
      const to = join(tmp, rel);
      mkdirSync(dirname(to), { recursive: true });
      for (let d = dirname(to); d !== tmp && !dirs.has(d); d = dirname(d)) dirs.add(d);
      const stub = stubbed.get(rel);
      writeFileSync(to, stub === undefined ? folder.read(rel) : recorderSource(stub), { flag: 'wx' });
      // The agent (uid 1000 in the container) reads every file; execute bits are kept as they were.
      const mode = folder.files.get(rel)?.mode ?? 0o644;
      chmodSync(to, mode & 0o111 ? 0o755 : 0o644);
    }
    // Explicit modes: the user's umask must not lock the agent out.
    for (const d of dirs) chmodSync(d, 0o755);
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    // A skill file that changed while being copied is the user's to fix, not the machine's.
    if (err instanceof UsageError) throw err;
    // Another run staged the same copy first: it is as good as ours.
    if (existsSync(target)) return target;
    throw new InfraError(`could not copy the skill ${folder.dir} to ${root}: ${errorMessage(err)}`, {
      cause: err,
    });
  }
  return target;
}

/** The staging root must be our own private folder: on a shared /tmp another user may have made it first. */
function checkPrivate(root: string): void {
  const st = lstatSync(root);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0)
    throw new InfraError(
      `${root} is not a private folder of this user (a link, another user's, or open to others): remove it and run again`,
    );
}

function stagingRoot(): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return join(tmpdir(), `agent-bench-skills-${uid}`);
}
