/**
 * `artifact`: a file the agent produced, as a skill manifest's expected_artifacts and
 * artifact_checks give it: a regular file at the end, and every content check of the entry holding
 * on it as it is after the last turn (read through ground truth, src/skills/artifact-checks.ts).
 */
import { contentProblem } from '../../../manifest/artifact-checks.js';
import { checkSpecs } from '../../../manifest/check-specs.js';
import type { SkillFolder } from '../../../manifest/folder.js';
import type { CheckContext, FlagOutcome } from '../../../tasks/types.js';
import type { FlagEntry } from '../flag-entry.js';

type ArtifactSpec = NonNullable<FlagEntry['artifact']>;

export function artifactCheck(spec: ArtifactSpec, folder: SkillFolder) {
  const checks = checkSpecs([spec], folder).map((c) => c.check);
  return async (ctx: CheckContext): Promise<FlagOutcome> => {
    if (ctx.finalSnapshot.get(spec.file)?.kind !== 'file')
      return { reached: false, detail: `${spec.file} is not a regular file at the end` };
    for (const check of checks) {
      const problem = await contentProblem(ctx, spec.file, check);
      if (problem !== null) return { reached: false, detail: problem };
    }
    // A file's mere presence shows when it was made; a content check is judged after the run.
    return {
      reached: true,
      turn: checks.length > 0 ? null : (ctx.changeTurns.get(spec.file)?.at(-1) ?? null),
    };
  };
}
