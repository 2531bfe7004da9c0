/**
 * What a workspace file held over a trial, as far as the evidence tells: the task's setup content
 * until its first change; after a write_file, the content written; after a change by a command (a
 * traced process that wrote, removed or renamed onto it, or an untraced command in a turn whose
 * snapshot changed it), unknown until a whole read_file of it showed what it then held. A change is
 * counted only in a turn whose snapshot shows the file changed, so a command that rewrote it
 * unchanged (`sed -i` matching nothing) starts no version. Reads are matched against the version in
 * force when they ran (seen.ts), never against content the file no longer held.
 */
import type { ToolCallLog } from '../results/trial.js';
import type { CheckContext } from '../tasks/types.js';
import type { StepRef } from './ordering.js';
import { isWithin, resolvePath, workspaceAbsolute } from './paths.js';

type Ctx = Pick<CheckContext, 'calls' | 'setupFiles' | 'changeTurns'>;

export interface FileVersion {
  /** Where it began: null for the setup version; else the writing step (reads after it see it). */
  from: StepRef | null;
  /** Its content; null when unknown or when the file was absent. */
  content: string | null;
  /** The setup content, unchanged since setup. */
  setup: boolean;
}

const memo = new WeakMap<object, Map<string, FileVersion[]>>();

/** The versions of the workspace file relPath, in order (computed once per trial and path). */
export function fileVersions(ctx: Ctx, relPath: string): FileVersion[] {
  let byPath = memo.get(ctx.calls);
  if (byPath === undefined) {
    byPath = new Map();
    memo.set(ctx.calls, byPath);
  }
  const cached = byPath.get(relPath);
  if (cached !== undefined) return cached;
  const abs = workspaceAbsolute(relPath);
  const changed = new Set(ctx.changeTurns.get(relPath) ?? []);
  const versions: FileVersion[] = [{ from: null, content: ctx.setupFiles.get(relPath) ?? null, setup: true }];
  ctx.calls.forEach((log, call) => {
    if (!changed.has(log.turn) || log.invalid !== null) return;
    for (const w of writesOf(log, abs))
      versions.push({ from: { call, step: w.step }, content: w.content, setup: false });
  });
  learnFromWholeReads(ctx, abs, versions);
  byPath.set(relPath, versions);
  return versions;
}

/** The version in force at a step: the last one that began before it. */
export function versionAt(versions: readonly FileVersion[], at: StepRef): FileVersion {
  let found = versions[0] as FileVersion;
  for (const v of versions) if (v.from === null || before(v.from, at)) found = v;
  return found;
}

function before(a: StepRef, b: StepRef): boolean {
  return a.call < b.call || (a.call === b.call && a.step < b.step);
}

/** The steps of one call that may have changed the file, with what they left in it when known. */
function writesOf(log: ToolCallLog, abs: string): { step: number; content: string | null }[] {
  if (log.name === 'write_file') {
    const path = log.arguments?.path;
    const content = log.arguments?.content;
    if (typeof path !== 'string' || resolvePath(log.cwd, path) !== abs) return [];
    // Killed midway (no exit code), it may have written part.
    if (log.exit_code === 0) return [{ step: 0, content: typeof content === 'string' ? content : null }];
    return log.exit_code === null ? [{ step: 0, content: null }] : [];
  }
  if (log.name !== 'execute_command') return [];
  if (log.processes === undefined) return [{ step: 0, content: null }];
  const out: { step: number; content: null }[] = [];
  log.processes.forEach((p, step) => {
    if ([...p.writes, ...p.removed, ...p.renamed_to].some((w) => isWithin(abs, w)))
      out.push({ step, content: null });
  });
  return out;
}

/** An unknown version becomes known from a read_file of the whole file made while it was in force. */
function learnFromWholeReads(ctx: Ctx, abs: string, versions: FileVersion[]): void {
  if (versions.every((v) => v.content !== null || v.setup)) return;
  ctx.calls.forEach((log, call) => {
    if (log.name !== 'read_file' || log.invalid !== null || log.exit_code !== 0 || log.truncated) return;
    const path = log.arguments?.path;
    const offset = log.arguments?.offset;
    if (typeof path !== 'string' || resolvePath(log.cwd, path) !== abs) return;
    if (offset !== undefined && offset !== 0) return;
    const v = versionAt(versions, { call, step: 0 });
    if (v.content === null && !v.setup) v.content = log.stdout;
  });
}
