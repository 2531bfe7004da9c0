/**
 * `collateral`: the no_collateral check (src/scoring/collateral.ts) with what the reference changes
 * read from its script once, when the task loads: each file its write_file calls leave, or, for a
 * reference that edits by command (sed, a script), the final files the manifest names
 * (`reference_files`). Those are the author's word: `validate`'s oracle fails when its commands
 * change a line they do not (that line is collateral), not when they claim more than it changes.
 */
import type { SkillFolder } from '../../../manifest/folder.js';
import { toRegExp } from '../../../manifest/regex.js';
import type { ScriptedTurn } from '../../../models/scripted.js';
import { WORKSPACE_DIR } from '../../../sandbox/types.js';
import { type CollateralAllowance, collateralChanges } from '../../../scoring/collateral.js';
import { resolvePath, workspaceRelative } from '../../../scoring/paths.js';
import type { CheckContext, FlagOutcome } from '../../../tasks/types.js';
import type { FlagEntry } from '../flag-entry.js';

type CollateralSpec = NonNullable<FlagEntry['collateral']>;

/** Workspace path → the reference's last version of it, by its write_file calls, then reference_files. */
export function referenceEdits(
  script: readonly ScriptedTurn[],
  spec: CollateralSpec,
  folder: SkillFolder,
): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const turn of script)
    for (const call of turn.calls) {
      const { path, content } = call.arguments;
      if (call.name !== 'write_file' || typeof path !== 'string' || typeof content !== 'string') continue;
      const rel = workspaceRelative(resolvePath(WORKSPACE_DIR, path));
      if (rel !== null && rel !== '') out.set(rel, content);
    }
  for (const [path, file] of Object.entries(spec.reference_files))
    out.set(path, file === null ? null : folder.read(file).toString('utf8'));
  return out;
}

export function collateralCheck(spec: CollateralSpec, reference: ReadonlyMap<string, string | null>) {
  const allowance: CollateralAllowance = {
    allow: spec.allow,
    regions: spec.regions.map((r) => ({ file: r.file, block: toRegExp(r.block) })),
  };
  return async (ctx: CheckContext): Promise<FlagOutcome> => {
    const found = await collateralChanges({
      placed: ctx.setupFiles,
      reference,
      setupSnapshot: ctx.setupSnapshot,
      finalSnapshot: ctx.finalSnapshot,
      readFinal: (p) => ctx.groundTruth.readFile(p),
      allowedWrites: ctx.declaredWrites.allowed,
      ignored: ctx.declaredWrites.ignored,
      allowance,
    });
    if (found.length === 0) return { reached: true, turn: null };
    const named = found.slice(0, 3).map((c) => `${c.path}: ${c.what}`);
    const more = found.length > 3 ? ` (and ${found.length - 3} more)` : '';
    return { reached: false, detail: `collateral change: ${named.join('; ')}${more}` };
  };
}
