/**
 * Exports what the agent produced legitimately — new or changed files inside the task's allowed
 * writes — from the sandbox to the results folder, before the next reset wipes them.
 *
 * What comes out of the sandbox is the agent's, so the host side trusts none of it: only regular
 * files are fetched (src/sandbox/docker/transfer.ts), each written as a new file (never through an
 * existing one or a link) under a folder made fresh for the trial, at a path checked to stay inside
 * it. The trial's folder is replaced only when every folder on the way to it, from the results
 * folder down, is a real folder: a link planted there is refused, never followed, so the removal
 * can only ever touch the harness's own folder.
 */
import { lstat, mkdir, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { ArtifactRecord } from '../results/trial.js';
import type { WorkspaceSnapshot } from '../sandbox/types.js';
import { type Sandbox, WORKSPACE_DIR } from '../sandbox/types.js';
import { matchesAnyWorkspaceGlob } from '../scoring/glob.js';
import { ignoredPaths } from '../tasks/ignored.js';
import type { WorkspaceParts } from '../tasks/types.js';
import { InternalError, UsageError } from '../util/errors.js';
import { sha256 } from '../util/hash.js';

/** Beyond this many bytes per trial, further artifacts are listed but not copied. */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

/** The trial's folder: `dir` is `relative` joined to the results folder. */
export interface ArtifactsFolder {
  dir: string;
  relative: string;
}

export async function exportArtifacts(
  sandbox: Sandbox,
  task: Pick<WorkspaceParts, 'allowedWrites' | 'ignored' | 'watchToolCaches'>,
  setup: WorkspaceSnapshot,
  final: WorkspaceSnapshot,
  folder: ArtifactsFolder,
): Promise<ArtifactRecord[]> {
  const produced = [...final.entries()]
    .filter(([path, entry]) => {
      if (entry.kind !== 'file') return false;
      if (
        !matchesAnyWorkspaceGlob(task.allowedWrites, path) ||
        matchesAnyWorkspaceGlob(ignoredPaths(task), path)
      )
        return false;
      const before = setup.get(path);
      return before?.kind !== 'file' || before.sha256 !== entry.sha256;
    })
    .map(([path]) => path)
    .sort();
  // A rerun of the same trial index replaces the folder rather than mixing two runs' files.
  await replaceFolder(folder, produced.length > 0);
  if (produced.length === 0) return [];

  const files = await sandbox.getFiles(produced.map((p) => `${WORKSPACE_DIR}/${p}`));
  const records: ArtifactRecord[] = [];
  const made = new Set<string>();
  let exported = 0;
  for (const path of produced) {
    const bytes = files.get(`${WORKSPACE_DIR}/${path}`);
    if (bytes === undefined) continue;
    const parts = pathParts(path);
    const fits = parts !== null && exported + bytes.length <= MAX_EXPORT_BYTES;
    if (fits) {
      let at = folder.dir;
      for (const part of parts.slice(0, -1)) {
        at = join(at, part);
        if (!made.has(at)) await mkdir(at);
        made.add(at);
      }
      // wx: a new file, never an existing one nor whatever a link would point at.
      await writeFile(join(at, parts[parts.length - 1] as string), bytes, { flag: 'wx' });
      exported += bytes.length;
    }
    records.push({ path, size: bytes.length, sha256: sha256(bytes), exported: fits });
  }
  return records;
}

/** A workspace path's segments, or null when it could lead anywhere but below the trial's folder. */
function pathParts(path: string): string[] | null {
  const parts = path.split('/');
  const bad = parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0'));
  return bad || isAbsolute(path) ? null : parts;
}

/** Removes the trial's folder and, when `recreate`, makes it anew: below real folders only. */
async function replaceFolder(folder: ArtifactsFolder, recreate: boolean): Promise<void> {
  const parts = pathParts(folder.relative);
  const root = resolve(folder.dir, ...(parts ?? []).map(() => '..'));
  if (parts === null || join(root, ...parts) !== resolve(folder.dir))
    throw new InternalError(`artifacts folder ${folder.dir} is not ${folder.relative} of a results folder`);
  let at = root;
  for (const part of parts.slice(0, -1)) {
    at = join(at, part);
    const st = await lstat(at).catch(() => null);
    if (st === null) {
      if (!recreate) return;
      await mkdir(at).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
    } else if (st.isSymbolicLink() || !st.isDirectory())
      throw new UsageError(
        `${at} is ${st.isSymbolicLink() ? 'a link' : 'a file'}, not a folder agent-bench made: refusing to write artifacts through it`,
      );
  }
  // Every folder above is real, so this removes the trial's own folder (or a link in its place).
  await rm(folder.dir, { recursive: true, force: true });
  if (recreate) await mkdir(folder.dir);
}
