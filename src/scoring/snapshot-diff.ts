/**
 * Workspace snapshots compared: which turn changed which path, and what changed outside the paths a
 * task allows. An entry changes when it appears, disappears, or differs: a file by content or mode,
 * a symlink by target (never followed), a directory by mode, or any entry by kind.
 */
import type { SnapshotEntry, WorkspaceSnapshot } from '../sandbox/types.js';
import { matchesAnyWorkspaceGlob } from './glob.js';

export interface TurnSnapshot {
  turn: number;
  snapshot: WorkspaceSnapshot;
}

export function sameEntry(a: SnapshotEntry | undefined, b: SnapshotEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === 'file' && b.kind === 'file') return a.sha256 === b.sha256 && a.mode === b.mode;
  if (a.kind === 'symlink' && b.kind === 'symlink') return a.target === b.target;
  if (a.kind === 'dir' && b.kind === 'dir') return a.mode === b.mode;
  return false;
}

function changedPaths(before: WorkspaceSnapshot, after: WorkspaceSnapshot): string[] {
  const out: string[] = [];
  for (const [path, entry] of after) if (!sameEntry(before.get(path), entry)) out.push(path);
  for (const path of before.keys()) if (!after.has(path)) out.push(path);
  return out;
}

/** Adds `turn` to the change turns of each of `paths` (what a look after that turn saw change). */
export function recordChanges(log: Map<string, number[]>, turn: number, paths: Iterable<string>): void {
  for (const path of paths) {
    const list = log.get(path);
    if (list === undefined) log.set(path, [turn]);
    // The judge may record the final look under the last turn again: one entry per turn.
    else if (list[list.length - 1] !== turn) list.push(turn);
  }
}

/**
 * Path → first turn that changed it. The first change from the turn before is the first difference
 * from setup: until then the path was as setup left it.
 */
export function firstTurns(changeTurns: ReadonlyMap<string, readonly number[]>): Map<string, number> {
  const first = new Map<string, number>();
  for (const [path, turns] of changeTurns) if (turns[0] !== undefined) first.set(path, turns[0]);
  return first;
}

/** Path → first turn whose snapshot differed from setup (created, changed or deleted). */
export function firstChangeTurns(
  setup: WorkspaceSnapshot,
  perTurn: readonly TurnSnapshot[],
): Map<string, number> {
  const first = new Map<string, number>();
  for (const { turn, snapshot } of perTurn) {
    for (const path of changedPaths(setup, snapshot)) if (!first.has(path)) first.set(path, turn);
  }
  return first;
}

/** Path → every turn whose snapshot differed from the one before it (setup for the first), ascending. */
export function changeTurns(
  setup: WorkspaceSnapshot,
  perTurn: readonly TurnSnapshot[],
): Map<string, number[]> {
  const turns = new Map<string, number[]>();
  let previous = setup;
  for (const { turn, snapshot } of perTurn) {
    for (const path of changedPaths(previous, snapshot)) {
      const list = turns.get(path) ?? [];
      // The loop may add the final snapshot under the last turn again: one entry per turn.
      if (list[list.length - 1] !== turn) list.push(turn);
      turns.set(path, list);
    }
    previous = snapshot;
  }
  return turns;
}

type ChangeKind = 'created' | 'modified' | 'deleted';

export interface TamperViolation {
  path: string;
  change: ChangeKind;
  /** The entry's kind after the change (before it, for a deletion). */
  kind: SnapshotEntry['kind'];
}

/**
 * Every change between setup and the final state outside allowedWrites, ignored paths aside.
 * Directories do not count by being created or deleted (their files do), only by a mode change.
 */
export function detectTamper(
  setup: WorkspaceSnapshot,
  final: WorkspaceSnapshot,
  globs: { allowedWrites: readonly string[]; ignored: readonly string[] },
): TamperViolation[] {
  const out: TamperViolation[] = [];
  for (const path of changedPaths(setup, final)) {
    if (matchesAnyWorkspaceGlob(globs.ignored, path) || matchesAnyWorkspaceGlob(globs.allowedWrites, path))
      continue;
    const before = setup.get(path);
    const after = final.get(path);
    if (after === undefined) {
      if (before !== undefined && before.kind !== 'dir')
        out.push({ path, change: 'deleted', kind: before.kind });
    } else if (before === undefined) {
      if (after.kind !== 'dir') out.push({ path, change: 'created', kind: after.kind });
    } else out.push({ path, change: 'modified', kind: after.kind });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
