/**
 * The artifacts a merged file's trials exported (`artifacts/<task>/<model>/trial-<n>/`), copied from
 * each shard's folder into the merged one, so reports and the dashboard find them where a single
 * run leaves them. A shard folder is another machine's output: only real folders and regular files
 * are copied, never through or as a link, and only below the results folders.
 */
import { copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { artifactsDir } from './layout.js';
import type { ResultFile } from './result-file.js';

/** Copies every exported trial folder of `result` from `fromDir` into `intoDir`; returns what it left out. */
export async function copyArtifacts(result: ResultFile, fromDir: string, intoDir: string): Promise<string[]> {
  if (resolve(fromDir) === resolve(intoDir)) return [];
  const skipped: string[] = [];
  for (const trial of result.trials) {
    if (trial.artifacts_dir === null) continue;
    // A shard's file names its folders: only the one a run of this cell would have written is
    // copied (and replaced in the target), never another model's, another task's or the trash.
    const canonical = artifactsDir(result.task_id, result.model, trial.index, result.condition);
    if (trial.artifacts_dir !== canonical) {
      skipped.push(
        `artifacts of ${result.task_id} trial ${trial.index + 1}: ${trial.artifacts_dir} is not this trial's folder (${canonical}), not copied`,
      );
      continue;
    }
    const parts = pathParts(trial.artifacts_dir);
    if (parts === null || !(await realFolders(fromDir, parts))) {
      skipped.push(
        `artifacts of ${result.task_id} trial ${trial.index + 1}: ${trial.artifacts_dir} is not a folder below ${fromDir}`,
      );
      continue;
    }
    if (!(await makeFolders(intoDir, parts.slice(0, -1)))) {
      skipped.push(
        `artifacts of ${result.task_id} trial ${trial.index + 1}: a link or file is in the way in ${intoDir}`,
      );
      continue;
    }
    const to = join(intoDir, ...parts);
    await rm(to, { recursive: true, force: true });
    await copyTree(join(fromDir, ...parts), to, skipped);
  }
  return skipped;
}

/** A relative path's segments, or null when it could lead out of the folder it is relative to. */
function pathParts(path: string): string[] | null {
  const parts = path.split('/');
  const bad = parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0'));
  return bad || isAbsolute(path) ? null : parts;
}

/** Every segment below root is a real folder (no link on the way). */
async function realFolders(root: string, parts: readonly string[]): Promise<boolean> {
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    const st = await lstat(at).catch(() => null);
    if (st === null || !st.isDirectory()) return false;
  }
  return true;
}

/** Makes the folders below root that are missing; false when a link or a file is in the way. */
async function makeFolders(root: string, parts: readonly string[]): Promise<boolean> {
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    const st = await lstat(at).catch(() => null);
    if (st === null) await mkdir(at);
    else if (!st.isDirectory()) return false;
  }
  return true;
}

async function copyTree(from: string, to: string, skipped: string[]): Promise<void> {
  await mkdir(to);
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) await copyTree(source, join(to, entry.name), skipped);
    else if (entry.isFile()) await copyFile(source, join(to, entry.name));
    else skipped.push(`${source}: not a regular file or folder, not copied`);
  }
}
