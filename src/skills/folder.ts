/**
 * A skill folder as files: relative POSIX paths with size and mode, read synchronously (skills are
 * small, and the bundled ones load with the task registry). Links are followed. Version-control
 * and cache entries are no part of a skill.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from './problems.js';

export const MANIFEST_FILE = 'bench_manifest.json';
export const SKILL_FILE = 'SKILL.md';
/** Bench-only files (reference outputs, schemas): part of the digest, never mounted for the agent. */
const BENCH_DIR = '.bench';

const SKIPPED = new Set(['.git', '.hg', '.svn', '__pycache__', '.DS_Store', 'node_modules']);
const MAX_FILES = 5000;
const MAX_BYTES = 200 * 1024 * 1024;

interface SkillFile {
  size: number;
  mode: number;
}

export interface SkillFolder {
  /** Absolute path. */
  dir: string;
  files: ReadonlyMap<string, SkillFile>;
  read(rel: string): Buffer;
}

/** The folder's files, or the problems that stop it being read. */
export function readSkillFolder(dir: string): { folder: SkillFolder | null; problems: Problem[] } {
  try {
    if (!statSync(dir).isDirectory()) return fail(`${dir} is not a folder`);
  } catch {
    return fail(`${dir} does not exist`);
  }
  const files = new Map<string, SkillFile>();
  const problems: Problem[] = [];
  let bytes = 0;
  const walk = (rel: string, depth: number): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      if (SKIPPED.has(name)) continue;
      const path = rel === '' ? name : `${rel}/${name}`;
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(join(dir, path));
      } catch {
        problems.push({ at: path, message: 'a broken link' });
        continue;
      }
      if (st.isDirectory() && depth < 16) walk(path, depth + 1);
      else if (st.isFile()) {
        files.set(path, { size: st.size, mode: st.mode & 0o777 });
        bytes += st.size;
      }
    }
  };
  walk('', 0);
  if (files.size > MAX_FILES)
    problems.push({ at: '', message: `more than ${MAX_FILES} files: is this a skill?` });
  if (bytes > MAX_BYTES)
    problems.push({ at: '', message: `more than ${MAX_BYTES >> 20} MiB: is this a skill?` });
  const read = (rel: string): Buffer => readFileSync(join(dir, rel));
  return { folder: { dir, files, read }, problems };
}

/** Files the agent sees at /workspace/skill: all but the manifest and the bench-only folder. */
export function mountedFiles(folder: SkillFolder): string[] {
  return [...folder.files.keys()].filter((p) => p !== MANIFEST_FILE && !isBenchOnly(p));
}

export function isBenchOnly(rel: string): boolean {
  return rel === BENCH_DIR || rel.startsWith(`${BENCH_DIR}/`);
}

function fail(message: string): { folder: null; problems: Problem[] } {
  return { folder: null, problems: [{ at: '', message }] };
}
