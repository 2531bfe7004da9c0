/**
 * Exports what the agent produced legitimately — new or changed files inside the task's allowed
 * writes — from the sandbox to the results folder, before the next reset wipes them.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ArtifactRecord } from '../results/trial.js';
import type { WorkspaceSnapshot } from '../sandbox/types.js';
import { type Sandbox, WORKSPACE_DIR } from '../sandbox/types.js';
import { matchesAnyWorkspaceGlob } from '../scoring/glob.js';
import type { Task } from '../tasks/types.js';
import { sha256 } from '../util/hash.js';

/** Beyond this many bytes per trial, further artifacts are listed but not copied. */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

export async function exportArtifacts(
  sandbox: Sandbox,
  task: Pick<Task, 'allowedWrites' | 'ignored'>,
  setup: WorkspaceSnapshot,
  final: WorkspaceSnapshot,
  dir: string,
): Promise<ArtifactRecord[]> {
  const produced = [...final.entries()]
    .filter(([path, entry]) => {
      if (entry.kind !== 'file') return false;
      if (!matchesAnyWorkspaceGlob(task.allowedWrites, path) || matchesAnyWorkspaceGlob(task.ignored, path))
        return false;
      const before = setup.get(path);
      return before?.kind !== 'file' || before.sha256 !== entry.sha256;
    })
    .map(([path]) => path)
    .sort();
  // A rerun of the same trial index replaces the folder rather than mixing two runs' files.
  await rm(dir, { recursive: true, force: true });
  if (produced.length === 0) return [];

  const files = await sandbox.getFiles(produced.map((p) => `${WORKSPACE_DIR}/${p}`));
  const records: ArtifactRecord[] = [];
  let exported = 0;
  for (const path of produced) {
    const bytes = files.get(`${WORKSPACE_DIR}/${path}`);
    if (bytes === undefined) continue;
    const fits = exported + bytes.length <= MAX_EXPORT_BYTES;
    if (fits) {
      const target = join(dir, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, bytes);
      exported += bytes.length;
    }
    records.push({ path, size: bytes.length, sha256: sha256(bytes), exported: fits });
  }
  return records;
}
