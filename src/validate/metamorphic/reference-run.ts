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

/**
 * What the reference changed, and the files it changed that setup made rather than the task
 * placed (a Harbor image's own files): their content as they were is not known here, so they wait
 * in `unplaced` for a run that changed nothing to show it (withSetupContent).
 */
export async function changedFiles(
  task: WorkspaceTask,
  seen: WorkspaceSeen,
): Promise<{ changed: ChangedFile[]; unplaced: ChangedFile[] }> {
  const ignored = ignoredPaths(task);
  const placed = new Map(task.files.map((f) => [f.path, f.content]));
  const candidates = [...seen.changeTurns.entries()].filter(([path]) => {
    if (matchesAnyWorkspaceGlob(ignored, path)) return false;
    const final = seen.finalSnapshot.get(path);
    const setup = seen.setupSnapshot.get(path);
    if (setup !== undefined && setup.kind !== 'file') return false;
    if (final === undefined) return setup?.kind === 'file';
    return final.kind === 'file' && final.size <= MAX_TEXT_BYTES;
  });
  const bytes = await readTexts(
    seen,
    candidates.filter(([p]) => seen.finalSnapshot.has(p)).map(([p]) => p),
  );
  const out = { changed: [] as ChangedFile[], unplaced: [] as ChangedFile[] };
  for (const [path, turns] of candidates) {
    const firstTurn = turns[0];
    const lastTurn = turns.at(-1);
    if (firstTurn === undefined || lastTurn === undefined) continue;
    const after = bytes.get(path) ?? null;
    // Removed, or text: a binary file the reference wrote is not mutated.
    if (seen.finalSnapshot.has(path) && after === null) continue;
    const unplaced = seen.setupSnapshot.has(path) && !placed.has(path);
    const before = placed.get(path) ?? null;
    if (!unplaced && before === after) continue;
    (unplaced ? out.unplaced : out.changed).push({ path, before, after, firstTurn, lastTurn });
  }
  out.changed.sort((a, b) => a.path.localeCompare(b.path));
  return out;
}

/** The text of workspace files as `seen` leaves them (a binary or missing file is absent). */
export async function readTexts(seen: WorkspaceSeen, paths: readonly string[]): Promise<Map<string, string>> {
  const raw = await seen.sandbox.getFiles(paths.map((p) => workspaceAbsolute(p)));
  const out = new Map<string, string>();
  for (const path of paths) {
    const bytes = raw.get(workspaceAbsolute(path));
    const text = bytes === undefined ? null : textOf(bytes);
    if (text !== null) out.set(path, text);
  }
  return out;
}

/**
 * The unplaced changes with their content as setup made it, read from a run that changed nothing
 * (`setup`); one whose setup content is not text, or that did not change after all, is dropped.
 */
export function withSetupContent(
  unplaced: readonly ChangedFile[],
  setup: ReadonlyMap<string, string>,
): ChangedFile[] {
  return unplaced.flatMap((f) => {
    const before = setup.get(f.path);
    return before === undefined || before === f.after ? [] : [{ ...f, before }];
  });
}

function textOf(raw: Buffer): string | null {
  if (raw.includes(0)) return null;
  const text = raw.toString('utf8');
  return Buffer.from(text, 'utf8').equals(raw) ? text : null;
}
