/**
 * The keys of an artifact_checks entry (a skill's, or a task folder's `artifact`) that say what the
 * artifact must mean, and the checks each becomes, one flag each: `facts` (one per fact), and
 * `no_placeholders`, `no_external`, `not_copy_of` and `derived_from` (one each). What needs the
 * folder's files (the reference's text, the input's numbers) is read and computed here, once, when
 * the manifest loads, so a missing file, an unknown column or a formula that does not parse is a
 * load error with its path.
 */
import { z } from 'zod';
import type { SkillFolder } from '../folder.js';
import { derivedFromEntry } from './derived-values.js';
import { noExternalProblem } from './external-refs.js';
import type { MeaningCheck } from './meaning-checks.js';
import { wordRuns } from './similarity.js';

const Wording = z.string().trim().min(1);

function notCopyOf(folder: SkillFolder, file: z.ZodType<string>) {
  return z
    .strictObject({
      file,
      max_similarity: z.number().min(0).lt(1, 'must be below 1 (1 allows a verbatim copy)'),
    })
    .transform((n, ctx) => {
      const runs = wordRuns(n.file, folder.read(n.file).toString('utf8'));
      if (runs.size === 0) {
        ctx.addIssue({ code: 'custom', path: ['file'], message: `${n.file} has no text to compare with` });
        return z.NEVER;
      }
      return { ...n, runs };
    });
}

/** The keys, to spread into the entry's schema; `file` is the schema of a file of the folder. */
export function meaningKeys(folder: SkillFolder, file: z.ZodType<string>) {
  return {
    // A fact is a wording or a list of equivalent ones; one fact may be given alone.
    facts: z
      .preprocess(
        (v) => (typeof v === 'string' ? [v] : v),
        z.array(z.union([Wording, z.array(Wording).min(1)])),
      )
      .optional(),
    no_placeholders: z.boolean().optional(),
    no_external: z.boolean().optional(),
    not_copy_of: notCopyOf(folder, file).optional(),
    derived_from: derivedFromEntry(folder, file).optional(),
  };
}

type MeaningEntry = {
  file: string;
} & { [K in keyof ReturnType<typeof meaningKeys>]?: z.output<ReturnType<typeof meaningKeys>[K]> };

/** Problems across an entry's keys: `no_external` on a kind of file it cannot read. */
export function meaningEntryProblems(e: MeaningEntry): { path: string[]; message: string }[] {
  const problem = e.no_external === true ? noExternalProblem(e.file) : null;
  return problem === null ? [] : [{ path: ['no_external'], message: problem }];
}

/** The entry's meaning checks, facts first, in the order the keys are listed above. */
export function meaningSpecs(e: MeaningEntry): MeaningCheck[] {
  const out: MeaningCheck[] = (e.facts ?? []).map((fact) => ({ kind: 'fact', wordings: [fact].flat() }));
  if (e.no_placeholders === true) out.push({ kind: 'no_placeholders' });
  if (e.no_external === true) out.push({ kind: 'no_external' });
  const copy = e.not_copy_of;
  if (copy !== undefined)
    out.push({ kind: 'not_copy_of', reference: copy.file, runs: copy.runs, max: copy.max_similarity });
  const d = e.derived_from;
  if (d !== undefined)
    out.push({
      kind: 'derived_from',
      input: d.input,
      expected: d.expected,
      formulas: d.values.map(
        (v) => `${v.label ?? v.at} = ${v.value}${v.by === undefined ? '' : ` by ${v.by}`}`,
      ),
    });
  return out;
}
