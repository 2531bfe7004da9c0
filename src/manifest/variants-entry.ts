/**
 * `[variants]` of a task.toml, or `"variants"` of a skill's bench_manifest.json: a generator draws a
 * fresh instance per trial (src/tasks/variants/); read by both folders' schemas. It is run, executable, from a read-only copy of
 * the folder: `generate SEED OUTDIR`.
 */
import { z } from 'zod';
import type { SkillFolder } from './folder.js';

export function variantsEntry(folder: SkillFolder) {
  return z.strictObject({
    generator: z
      .string()
      .min(1)
      .refine((p) => folder.files.has(p), { message: `not a file of the ${folder.noun} folder` })
      .refine((p) => ((folder.files.get(p)?.mode ?? 0) & 0o111) !== 0, {
        message: 'is not executable (chmod +x; its first line names the interpreter)',
      }),
    /** How many distinct instances the family has, about (said in `list`'s description). */
    count_hint: z.int().min(1).optional(),
    description: z.string().min(1).optional(),
  });
}
