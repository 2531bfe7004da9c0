/**
 * Pieces of the bench_manifest.json schema. Every key of the published format keeps its meaning
 * and shape; each extension is optional, and where an old key grew a richer form (a required
 * command as an object, a stub output as an object) the old plain string still parses, into the
 * new form. Checks that need the skill's files (does this script exist?) take the folder.
 */
import { posix } from 'node:path';
import { z } from 'zod';
import { isBenchOnly, type SkillFolder } from './folder.js';
import { schemaProblem } from './json-schema.js';
import { meaningEntryProblems, meaningKeys } from './meaning/meaning-entries.js';
import { regexProblem } from './regex.js';

/** A path relative to /workspace (or to the skill folder), normalized; never escaping its root. */
export const RelPath = z
  .string()
  .min(1)
  .transform((p, ctx) => {
    const norm = posix.normalize(p).replace(/(?<!\/)\/+$/, ''); // from a run's first slash only: linear
    if (p.startsWith('/') || norm === '..' || norm.startsWith('../') || norm === '.') {
      ctx.addIssue({
        code: 'custom',
        message: `must be a relative path inside its folder, not ${JSON.stringify(p)}`,
      });
      return z.NEVER;
    }
    return norm;
  });

/** A workspace path the agent produces: not inside the read-only skill mount. */
export const OutputPath = RelPath.refine((p) => p !== 'skill' && !p.startsWith('skill/'), {
  message: 'is inside skill/, which is mounted read-only',
});

/** A file of the skill folder. `mounted`: one the agent can see (not bench-only, not the manifest). */
export function skillFile(folder: SkillFolder, opts: { mounted: boolean }) {
  return RelPath.superRefine((p, ctx) => {
    if (!folder.files.has(p))
      ctx.addIssue({ code: 'custom', message: `file not found in ${folder.noun} folder` });
    else if (opts.mounted && (isBenchOnly(p) || p === 'bench_manifest.json'))
      ctx.addIssue({ code: 'custom', message: 'is a bench-only file, which the agent never sees' });
  });
}

const Regex = z
  .string()
  .min(1)
  .superRefine((s, ctx) => {
    const problem = regexProblem(s);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });

/** Flag-id parts chosen by the manifest: short, printable, no spaces. */
export const Id = z.string().regex(/^[A-Za-z0-9_.:@/-]{1,64}$/, 'must be 1-64 letters, digits or _.:@/-');

/**
 * The manifest's task id names results files and artifact folders, so it is a slug: nothing in it can
 * lead out of the results folder (`../../x`) or hide a file there.
 */
export const TaskId = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/,
    'must be 1-64 letters, digits or _.-, starting with a letter or digit (it names files in the results folder)',
  );

const asObject = (key: string) => (v: unknown) => (typeof v === 'string' ? { [key]: v } : v);

export const RequiredCommand = z.preprocess(
  asObject('pattern'),
  z
    .strictObject({
      id: Id.optional(),
      pattern: Regex.optional(),
      any_of: z.array(Regex).min(1).optional(),
      exit_code: z.int().min(0).max(255).optional(),
      recheck: z.boolean().optional(),
      description: z.string().optional(),
      /** Artifacts this command's run writes: their final content must come from a run of it. */
      writes: z.array(OutputPath).optional(),
      /** Its inputs (workspace-relative): the run that writes an artifact must have read them, and no other data the agent made. */
      reads: z.array(RelPath).min(1).optional(),
    })
    .superRefine((c, ctx) => {
      if ((c.pattern === undefined) === (c.any_of === undefined))
        ctx.addIssue({ code: 'custom', message: 'give exactly one of pattern and any_of' });
      if (c.recheck === true && c.exit_code === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['recheck'],
          message: 'needs exit_code (the code the re-run must give)',
        });
    }),
);

export const HarnessCheck = z.strictObject({
  id: Id.optional(),
  command: z.string().min(1),
  exit_code: z.int().min(0).max(255).default(0),
  description: z.string().optional(),
});

const Dimension = z.int().min(1).max(100_000);
const ImageCheck = z.strictObject({
  format: z.enum(['png', 'jpeg', 'gif']).optional(),
  width: Dimension.optional(),
  height: Dimension.optional(),
  min_width: Dimension.optional(),
  min_height: Dimension.optional(),
  max_width: Dimension.optional(),
  max_height: Dimension.optional(),
});

/** A JSON schema: a file of the skill folder (bench-only is fine) or an inline object. */
function jsonSchemaRef(folder: SkillFolder) {
  return z.unknown().superRefine((v, ctx) => {
    const problem = (message: string): void => ctx.addIssue({ code: 'custom', message });
    if (typeof v === 'string') {
      if (!folder.files.has(v)) return problem(`file not found in ${folder.noun} folder`);
      try {
        JSON.parse(folder.read(v).toString('utf8'));
      } catch (err) {
        return problem(`${v} is not valid JSON: ${(err as Error).message}`);
      }
    } else if (typeof v !== 'object' || v === null || Array.isArray(v))
      problem(`expected a schema object or the path of a schema file in the ${folder.noun} folder`);
  });
}

/** The schema a `json.schema` names: the object itself, or the JSON of the folder's file. */
export function schemaValue(ref: unknown, folder: SkillFolder): unknown {
  return typeof ref === 'string' ? JSON.parse(folder.read(ref).toString('utf8')) : ref;
}

/** A single string where a list is expected, as the list of it. */
const oneOrList = (v: unknown): unknown => (typeof v === 'string' ? [v] : v);

export function artifactCheck(folder: SkillFolder) {
  return z
    .strictObject({
      file: OutputPath,
      id: Id.optional(),
      // One string or a list, as regex: parsed to a list here, once.
      contains: z.preprocess(oneOrList, z.array(z.string().min(1))).optional(),
      not_contains: z.preprocess(oneOrList, z.array(z.string().min(1))).optional(),
      regex: z.preprocess(oneOrList, z.array(Regex)).optional(),
      json: z
        .preprocess(
          (v) => (v === true ? {} : v === false ? undefined : v),
          z.strictObject({ schema: jsonSchemaRef(folder).optional() }).optional(),
        )
        .optional(),
      html: z.boolean().optional(),
      min_bytes: z.int().min(1).optional(),
      image: ImageCheck.optional(),
      // What the artifact must mean (src/manifest/meaning/): facts, no placeholders, nothing fetched
      // from elsewhere, no near-copy of a folder file, numbers recomputed from an input of the folder.
      ...meaningKeys(folder, skillFile(folder, { mounted: false })),
    })
    .superRefine((c, ctx) => {
      for (const p of meaningEntryProblems(c)) ctx.addIssue({ code: 'custom', ...p });
      // Compiled here, once, so a bad schema is a load error that names the artifact.
      const ref = c.json?.schema;
      if (ref === undefined) return;
      let schema: unknown;
      try {
        schema = schemaValue(ref, folder);
      } catch {
        return; // a file that is missing or not JSON: jsonSchemaRef said so
      }
      const problem = schemaProblem(schema);
      if (problem !== null)
        ctx.addIssue({
          code: 'custom',
          path: ['json', 'schema'],
          message: `the schema for ${c.file} does not compile: ${problem}`,
        });
    });
}

export function stub(folder: SkillFolder) {
  const output = z.preprocess(
    asObject('path'),
    z
      .strictObject({
        path: OutputPath.optional(),
        arg: z
          .string()
          .regex(/^-{1,2}[A-Za-z0-9][A-Za-z0-9_-]*$/, 'must be an option such as --out')
          .optional(),
        from: skillFile(folder, { mounted: false }).optional(),
        content: z.string().optional(),
      })
      .superRefine((o, ctx) => {
        if ((o.path === undefined) === (o.arg === undefined))
          ctx.addIssue({ code: 'custom', message: 'give exactly one of path and arg' });
        if (o.from !== undefined && o.content !== undefined)
          ctx.addIssue({ code: 'custom', message: 'give at most one of from and content' });
      }),
  );
  return z.strictObject({
    outputs: z.array(output).default([]),
    stdout: z.string().optional(),
    exit_code: z.int().min(0).max(255).optional(),
    /**
     * The argv the real script accepts, word by word: an UPPER_CASE word is any value, `...` any
     * further words, every other word itself (`["PAGE", "--out", "OUT"]`). Another argv makes the
     * stub print its usage and exit 2, as the real script's parsing would.
     */
    usage: z.array(z.string().min(1)).min(1).optional(),
  });
}
