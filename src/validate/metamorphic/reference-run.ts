/**
 * The reference run as the metamorphic operators read it: which workspace files it changed, as the
 * task placed them and as it left them, and the last turn that changed each. Read once the trial
 * is judged, while the workspace is as the reference left it.
 */
import type { WorkspaceSeen } from '../../agent/workspace-trial.js';
import { matchesAnyWorkspaceGlob } from '../../scoring/glob.js';
import { workspaceAbsolute } from '../../scoring/paths.js';
import { ignoredPaths } from '../../tasks/ignored.js';
import type { WorkspaceTask } from '../../tasks/types.js';
import type { ChangedFile } from './types.js';

/** Bigger files are not mutated: a mutant of a generated blob says nothing of the task's checks. */
const MAX_TEXT_BYTES = 256 * 1024;

export async function changedFiles(task: WorkspaceTask, seen: WorkspaceSeen): Promise<ChangedFile[]> {
  const ignored = ignoredPaths(task);
  const placed = new Map(task.files.map((f) => [f.path, f.content]));
  const candidates = [...seen.changeTurns.entries()].filter(([path]) => {
    if (matchesAnyWorkspaceGlob(ignored, path)) return false;
    const final = seen.finalSnapshot.get(path);
    const setup = seen.setupSnapshot.get(path);
    // A file its setup commands made is not known as it was placed: it cannot be put back.
    if (setup !== undefined && !placed.has(path)) return false;
    if (final === undefined) return setup?.kind === 'file';
    return final.kind === 'file' && final.size <= MAX_TEXT_BYTES;
  });
  const bytes = await seen.sandbox.getFiles(
    candidates.filter(([p]) => seen.finalSnapshot.has(p)).map(([p]) => workspaceAbsolute(p)),
  );
  const out: ChangedFile[] = [];
  for (const [path, turns] of candidates) {
    const firstTurn = turns[0];
    const lastTurn = turns.at(-1);
    if (firstTurn === undefined || lastTurn === undefined) continue;
    const raw = bytes.get(workspaceAbsolute(path));
    const after = raw === undefined ? null : textOf(raw);
    // Removed, or text: a binary file the reference wrote is not mutated.
    if (raw !== undefined && after === null) continue;
    const before = placed.get(path) ?? null;
    if (before === after) continue;
    out.push({ path, before, after, firstTurn, lastTurn });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

function textOf(raw: Buffer): string | null {
  if (raw.includes(0)) return null;
  const text = raw.toString('utf8');
  return Buffer.from(text, 'utf8').equals(raw) ? text : null;
}
