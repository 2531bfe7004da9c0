/**
 * Loads a skill folder: SKILL.md, bench_manifest.json checked against the schema and against the
 * folder's files, then the checks only visible once the flags exist (lures naming flags). Every
 * problem is collected and reported at once, with its path, as one UsageError (exit 2), before any
 * container starts. A manifest with `"variants"` is one instance of a family: its `{{instance.*}}`
 * are filled from .bench/instance.json, the folder's own or a generated instance's laid over it.
 */
import { basename, resolve } from 'node:path';
import { MANIFEST_FILE, readSkillFolder, SKILL_FILE, type SkillFolder } from '../manifest/folder.js';
import { overlayFolder } from '../manifest/folder-overlay.js';
import { folderFiles, generatorDigest } from '../manifest/generator-input.js';
import { expectProblems } from '../manifest/manifest-scripts.js';
import { type Problem, problemsFromIssues, skillUsageError } from '../manifest/problems.js';
import type { GeneratedVariants } from '../tasks/types.js';
import { skillTreeProblem } from '../tasks/variants/instance-tree.js';
import { skillDigest } from './digest.js';
import { skillFlags } from './flags.js';
import { manifestSchema } from './manifest.js';
import { type SkillSpec, toSpec } from './spec.js';
import { withInstanceValues } from './variants.js';

export interface LoadedSkill {
  /** Absolute path of the folder. */
  dir: string;
  folder: SkillFolder;
  spec: SkillSpec;
  digest: string;
  /** `"variants"`: every trial draws a generated instance of the folder (./variants.ts). */
  variants?: GeneratedVariants<LoadedSkill>;
}

export function loadSkill(dir: string): LoadedSkill {
  const abs = resolve(dir);
  const { folder, problems } = readSkillFolder(abs);
  if (folder === null) throw skillUsageError(dir, problems);
  return skillFromFolder(dir, folder, problems, null);
}

/** The skill a folder holds: its own instance (instance null), or a generated one laid over it. */
function skillFromFolder(
  dir: string,
  folder: SkillFolder,
  problems: Problem[],
  instance: string | null,
): LoadedSkill {
  if (!folder.files.has(SKILL_FILE))
    problems.push({ at: SKILL_FILE, message: 'not found in the skill folder' });
  const read = readManifest(folder, problems);
  const filled = read === undefined ? undefined : withInstanceValues(read, folder, instance, problems);
  if (filled === undefined) throw skillUsageError(dir, problems);
  const { raw, values } = filled;
  const parsed = manifestSchema(folder).safeParse(raw);
  if (!parsed.success)
    throw skillUsageError(dir, [...problems, ...problemsFromIssues(parsed.error.issues, raw)]);
  const { spec, problems: specProblems } = toSpec(parsed.data, folder, basename(folder.dir));
  problems.push(...specProblems, ...flagProblems(spec));
  if (problems.length > 0) throw skillUsageError(dir, problems);
  const v = parsed.data.variants;
  const variants: GeneratedVariants<LoadedSkill> | undefined =
    v === undefined || values === null
      ? undefined
      : {
          drawn: 'generator',
          generator: v.generator,
          ...(v.count_hint === undefined ? {} : { countHint: v.count_hint }),
          digest: generatorDigest(folder, [MANIFEST_FILE]),
          ...(instance === null ? {} : { instance }),
          values,
          folderFiles: () => folderFiles(folder),
          treeProblem: skillTreeProblem,
          // Only the files the generator wrote replace the folder's.
          instanceOf: (tree, id) =>
            skillFromFolder(
              `${dir} (instance ${id})`,
              overlayFolder(folder, tree, () => false),
              [],
              id,
            ),
        };
  return {
    dir: folder.dir,
    folder,
    spec,
    digest: skillDigest(folder),
    ...(variants === undefined ? {} : { variants }),
  };
}

function readManifest(folder: SkillFolder, problems: Problem[]): unknown {
  if (!folder.files.has(MANIFEST_FILE)) {
    problems.push({
      at: MANIFEST_FILE,
      message: 'not found (write a starter one with `agent-bench skill init DIR`)',
    });
    return undefined;
  }
  try {
    return JSON.parse(folder.read(MANIFEST_FILE).toString('utf8'));
  } catch (err) {
    problems.push({ at: MANIFEST_FILE, message: `not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

/** Flag ids must be unique, every lure and cheat must name flags that exist, and run ids be unique. */
function flagProblems(spec: SkillSpec): Problem[] {
  const ids = skillFlags(spec, true).map((f) => f.id);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id))
      problems.push({ at: '', message: `two flags have the id ${JSON.stringify(id)}: give one an id` });
    seen.add(id);
  }
  problems.push(
    ...expectProblems(
      [
        ['lures', spec.lures],
        ['cheats', spec.cheats],
      ],
      ids,
    ),
  );
  for (const [key, runs] of [
    ['alternates', spec.alternates],
    ['lures', spec.lures],
    ['cheats', spec.cheats],
  ] as const) {
    const ids = new Set<string>();
    runs.forEach((r, i) => {
      if (ids.has(r.id))
        problems.push({
          at: `${key}[${i}].id`,
          message: `another of ${key} has the id ${JSON.stringify(r.id)}`,
        });
      ids.add(r.id);
    });
  }
  return problems;
}
