/**
 * A skill folder as files: relative POSIX paths with size and mode, read synchronously (skills are
 * small, and the bundled ones load with the task registry). Version-control and cache entries are
 * no part of a skill.
 *
 * A skill folder is untrusted input (downloaded, shared), and what is read from it ends up in the
 * sandbox, in stub outputs, in results and in exported artifacts. So nothing outside the folder is
 * ever read through it: a link is kept only when it points at a regular file inside the folder (and
 * is read as that file); a link out of the folder, a link to a folder, a broken link, a fifo, a
 * device and a socket are each a problem naming the entry. Reads open the file the walk resolved,
 * without following links, and refuse anything that is no longer a regular file or has outgrown
 * the limits. The walk stops at the first limit it passes, so pointing at `/` or `/proc` fails fast.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InternalError, UsageError } from '../util/errors.js';
import type { Problem } from './problems.js';

export const MANIFEST_FILE = 'bench_manifest.json';
export const SKILL_FILE = 'SKILL.md';
/** Bench-only files (reference outputs, schemas): part of the digest, never mounted for the agent. */
const BENCH_DIR = '.bench';

const SKIPPED = new Set(['.git', '.hg', '.svn', '__pycache__', '.DS_Store', 'node_modules']);
/** Files and folders together: the walk stops past this many. */
export const MAX_ENTRIES = 5000;
const MAX_DEPTH = 16;
/** Past this many problems the folder is refused without looking further (a link farm, `/proc`). */
const MAX_PROBLEMS = 20;

interface SkillFile {
  size: number;
  mode: number;
}

/** What kind of folder is read, for its messages and its size limit (task folders reuse this reader). */
export interface FolderKind {
  /** 'skill', 'task': "outside the skill folder", "is this a task?". */
  noun: string;
  /** The file that makes a folder one of its kind, named first when the walk stops at a limit. */
  marker: string;
  maxBytes: number;
}

const SKILL_FOLDER: FolderKind = { noun: 'skill', marker: SKILL_FILE, maxBytes: 200 * 1024 * 1024 };

export interface SkillFolder {
  /** Absolute path. */
  dir: string;
  /** The kind's noun, for messages about the folder's files. */
  noun: string;
  files: ReadonlyMap<string, SkillFile>;
  read(rel: string): Buffer;
}

interface WalkedFile extends SkillFile {
  /** The real path to open: the file itself, or the in-folder file a link points at. */
  real: string;
}

/** Ends the walk at a limit; the problem saying which is already recorded. */
class LimitReached extends Error {}

/** The folder's files, or the problems that stop it being read. */
export function readSkillFolder(
  dir: string,
  kind: FolderKind = SKILL_FOLDER,
): { folder: SkillFolder | null; problems: Problem[] } {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return fail(`${dir} does not exist`);
  }
  if (!statSync(root).isDirectory()) return fail(`${dir} is not a folder`);
  const files = new Map<string, WalkedFile>();
  const problems: Problem[] = [];
  let entries = 0;
  let bytes = 0;
  const problem = (at: string, message: string): void => {
    problems.push({ at, message });
    if (problems.length < MAX_PROBLEMS) return;
    problems.push({ at: '', message: `stopped looking after ${MAX_PROBLEMS} problems` });
    throw new LimitReached();
  };
  const walk = (rel: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(join(root, rel)).sort();
    } catch (err) {
      problem(rel, `cannot be listed (${errorCode(err)})`);
      return;
    }
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      if (++entries > MAX_ENTRIES) {
        problems.push({
          at: '',
          message: `more than ${MAX_ENTRIES} files and folders: is this a ${kind.noun}?`,
        });
        throw new LimitReached();
      }
      const path = rel === '' ? name : `${rel}/${name}`;
      const entry = classify(root, join(root, path), kind.noun);
      if (entry.kind === 'problem') problem(path, entry.message);
      else if (entry.kind === 'dir') {
        if (depth >= MAX_DEPTH) problem(path, `nested deeper than ${MAX_DEPTH} folders`);
        else walk(path, depth + 1);
      } else {
        files.set(path, { size: entry.st.size, mode: entry.st.mode & 0o777, real: entry.real });
        bytes += entry.st.size;
        if (bytes > kind.maxBytes) {
          problems.push({
            at: path,
            message: `${mib(entry.st.size)} MiB, and the folder passes ${kind.maxBytes >> 20} MiB with it: is this a ${kind.noun}?`,
          });
          throw new LimitReached();
        }
      }
    }
  };
  try {
    walk('', 0);
  } catch (err) {
    if (!(err instanceof LimitReached)) throw err;
    // `--skill-dir /proc` and the like: say first what is most likely wrong.
    if (!existsSync(join(root, kind.marker)))
      problems.unshift({ at: kind.marker, message: `not found: is this a ${kind.noun} folder?` });
    return { folder: null, problems };
  }
  const read = (rel: string): Buffer => readWalkedFile(rel, files.get(rel), kind);
  return { folder: { dir, noun: kind.noun, files, read }, problems };
}

type Entry =
  | { kind: 'file'; st: Stats; real: string }
  | { kind: 'dir' }
  | { kind: 'problem'; message: string };

function classify(root: string, abs: string, noun: string): Entry {
  let st: Stats;
  try {
    st = lstatSync(abs);
  } catch (err) {
    return { kind: 'problem', message: `cannot be read (${errorCode(err)})` };
  }
  if (st.isDirectory()) return { kind: 'dir' };
  if (st.isFile()) return { kind: 'file', st, real: abs };
  if (!st.isSymbolicLink()) return { kind: 'problem', message: `${specialKind(st)}, not a regular file` };
  let target: string;
  let real: string;
  try {
    target = readlinkSync(abs);
  } catch (err) {
    return { kind: 'problem', message: `a link that cannot be read (${errorCode(err)})` };
  }
  try {
    real = realpathSync(abs);
  } catch {
    return { kind: 'problem', message: `a broken link (to ${target})` };
  }
  if (!isInside(root, real))
    return {
      kind: 'problem',
      message: `a link to ${target}, outside the ${noun} folder (copy the file in instead)`,
    };
  let to: Stats;
  try {
    to = statSync(real);
  } catch (err) {
    return { kind: 'problem', message: `cannot be read (${errorCode(err)})` };
  }
  if (to.isDirectory())
    return { kind: 'problem', message: `a link to a folder (${target}); only links to files are kept` };
  if (!to.isFile()) return { kind: 'problem', message: `a link to ${specialKind(to)}, not a regular file` };
  return { kind: 'file', st: to, real };
}

function specialKind(st: Stats): string {
  if (st.isFIFO()) return 'a fifo';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'a special file';
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !rel.startsWith(sep);
}

/** The file's bytes, opened without following a link, as long as it is still a regular file within the limit. */
function readWalkedFile(rel: string, file: WalkedFile | undefined, kind: FolderKind): Buffer {
  if (file === undefined) throw new InternalError(`${rel} is no file of the ${kind.noun} folder`);
  let fd: number;
  try {
    // O_NONBLOCK: a file swapped for a fifo since the walk must not hang the open.
    fd = openSync(file.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    throw new UsageError(`${kind.noun} file ${rel} cannot be read (${errorCode(err)})`, { cause: err });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > kind.maxBytes)
      throw new UsageError(`${kind.noun} file ${rel} changed while agent-bench read the folder; run again`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Files the agent sees at /workspace/skill: all but the manifest and the bench-only folder. */
export function mountedFiles(folder: SkillFolder): string[] {
  return [...folder.files.keys()].filter((p) => p !== MANIFEST_FILE && !isBenchOnly(p));
}

export function isBenchOnly(rel: string): boolean {
  return rel === BENCH_DIR || rel.startsWith(`${BENCH_DIR}/`);
}

const mib = (n: number): string => (n / 2 ** 20).toFixed(n < 2 ** 20 ? 2 : 0);

function errorCode(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : 'error';
}

function fail(message: string): { folder: null; problems: Problem[] } {
  return { folder: null, problems: [{ at: '', message }] };
}
