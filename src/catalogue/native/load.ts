/**
 * A task folder read into a Task: the folder walked safely (src/skills/folder.ts), the manifest
 * parsed against its schema and against the folder's files, the starting workspace and the hidden
 * files read as text, the flags built, and the scripted runs resolved. Every problem is collected
 * and reported at once (one line each, naming the file and the field), before any container starts.
 */
import { basename, resolve } from 'node:path';
import { readSkillFolder, type SkillFolder } from '../../manifest/folder.js';
import { overlayFolder } from '../../manifest/folder-overlay.js';
import { folderFiles, generatorDigest } from '../../manifest/generator-input.js';
import { TaskId } from '../../manifest/manifest-parts.js';
import { expectProblems, lureExpect, resolveFiles } from '../../manifest/manifest-scripts.js';
import { problemsFromIssues } from '../../manifest/problems.js';
import type { ScriptedTurn } from '../../models/scripted.js';
import type { PodSpec } from '../../sandbox/types.js';
import {
  FLAG_JUDGE,
  type FlagCodeRef,
  type GeneratedVariants,
  type Lure,
  type SandboxTask,
  type TaskFile,
} from '../../tasks/types.js';
import { treeProblem } from '../../tasks/variants/instance-tree.js';
import { fillStrings, fillText, type TemplateScope } from '../../tasks/variants/template.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import { parseManifestText } from '../manifest-text.js';
import { type TaskProblem, taskFolderError } from '../problems.js';
import { readNativeServices } from '../services/native.js';
import { resolveServices } from '../services/resolve.js';
import type { Findings } from '../services/service-entry.js';
import { buildFlags } from './build-flags.js';
import { referenceEdits } from './checks/collateral.js';
import { flagCodeRef } from './flag-code.js';
import type { FlagEntry } from './flag-entry.js';
import {
  FILES_DIR,
  FLAGS_FILE,
  HIDDEN_FILES_DIR,
  INSTANCE_FILE,
  INSTRUCTION_FILE,
  MANIFEST_FILES,
  TASK_FOLDER,
} from './layout.js';
import { type TaskManifest, taskManifestSchema } from './manifest.js';

export function loadTaskFolder(dir: string): SandboxTask {
  const abs = resolve(dir);
  const { folder, problems: walked } = readSkillFolder(abs, TASK_FOLDER);
  const problems: TaskProblem[] = walked.map((p) => ({ file: p.at, at: '', message: p.message }));
  if (folder === null) throw taskFolderError(dir, problems);
  return taskFromFolder(dir, folder, problems, null);
}

/**
 * The task a folder holds. A task with `[variants]` is one instance of it: the folder's own
 * (instance null), or a generated one laid over the folder (src/tasks/variants/instance-task.ts);
 * either way its instance.json fills the `{{instance.*}}` of the instruction and the manifest.
 */
function taskFromFolder(
  dir: string,
  folder: SkillFolder,
  problems: TaskProblem[],
  instance: string | null,
): SandboxTask {
  const abs = folder.dir;
  const manifest = readManifest(folder, problems, instance);
  const template = manifest?.variants ?? null;
  const prompt = fillPrompt(readText(folder, INSTRUCTION_FILE, problems)?.replace(/\s+$/, ''), template);
  const files = filesUnder(folder, FILES_DIR, problems);
  const hiddenFiles = filesUnder(folder, HIDDEN_FILES_DIR, problems);
  if (manifest === null || prompt === undefined) throw taskFolderError(dir, problems);
  const { file, m } = manifest;
  const id = m.id ?? basename(abs);
  if (m.id === undefined && !TaskId.safeParse(id).success)
    problems.push({
      file,
      at: 'id',
      message: `the folder's name "${id}" is no task id: give one with id = "..."`,
    });
  const usesCode = m.flags.some((f) => f.code !== undefined);
  const flagCode =
    usesCode && folder.files.has(FLAGS_FILE)
      ? flagCodeRef(
          abs,
          m.flags.flatMap((f) => f.code ?? []),
        )
      : null;
  const referenceSolution = resolveFiles(m.reference_solution, folder);
  const built = buildFlags(m.flags, folder, flagCode, referenceSolution);
  const at = new Set<string>();
  for (const p of [...built.problems, ...runProblems(m)])
    if (!at.has(`${p.at}\n${p.message}`)) {
      at.add(`${p.at}\n${p.message}`);
      problems.push({ file, ...p });
    }
  const services = nativeServices(m, abs, id, file, problems);
  if (problems.length > 0) throw taskFolderError(dir, problems);
  const variants =
    m.variants === undefined
      ? undefined
      : variantsRef(m.variants, dir, folder, instance, template?.values ?? {});
  return {
    kind: 'sandbox',
    id,
    meta: metaOf(m, referenceSolution),
    prompt,
    maxTurns: m.max_turns,
    environment: { place: 'container', mounts: [], ...(services === null ? {} : { services }) },
    judge: FLAG_JUDGE,
    source: {
      folders: [abs],
      from: { noun: '', dir: abs },
      checks: checksDigest(m.flags, folder, flagCode, referenceSolution),
      ...variantsDigest(variants),
    },
    mountedFiles: [],
    allowedWrites: m.allowed_writes,
    ignored: m.ignored,
    ...(m.watch_tool_caches ? { watchToolCaches: true } : {}),
    files,
    ...(m.setup_commands.length === 0 ? {} : { setupCommands: m.setup_commands }),
    ...(m.check_timeout_sec === undefined ? {} : { checkTimeoutSec: m.check_timeout_sec }),
    ...(hiddenFiles.length === 0 ? {} : { hiddenFiles }),
    ...(m.mcp_servers.length === 0 ? {} : { mcpServers: m.mcp_servers }),
    ...(m.tools === 'all' ? {} : { tools: m.tools }),
    flags: built.flags,
    referenceSolution,
    lures: m.lures.map((l) => toLure(l, folder)),
    alternates: m.alternates.map((a) => ({ ...a, script: resolveFiles(a.script, folder) })),
    cheats: m.cheats.map((l) => toLure(l, folder)),
    ...(m.metamorphic === undefined ? {} : { metamorphicSkips: m.metamorphic.skip }),
    folder: { dir: abs, flagCode },
    ...(variants === undefined ? {} : { variants }),
  };
}

function variantsRef(
  v: NonNullable<TaskManifest['variants']>,
  dir: string,
  folder: SkillFolder,
  instance: string | null,
  values: Readonly<Record<string, unknown>>,
): GeneratedVariants<SandboxTask> {
  return {
    drawn: 'generator',
    generator: v.generator,
    values,
    ...(v.count_hint === undefined ? {} : { countHint: v.count_hint }),
    digest: generatorDigest(folder, [...MANIFEST_FILES, 'README.md']),
    ...(instance === null ? {} : { instance }),
    folderFiles: () => folderFiles(folder),
    treeProblem,
    // Read again from the folder, as at load time, so a broken instance is one line per problem.
    instanceOf: (tree, id) => taskFromFolder(`${dir} (instance ${id})`, overlayFolder(folder, tree), [], id),
  };
}

function fillPrompt(prompt: string | undefined, scope: TemplateScope | null): string | undefined {
  return prompt === undefined || scope === null ? prompt : fillText(prompt, scope);
}

/**
 * The folder's task.toml as parsed, for what needs the checks as written rather than compiled
 * (`task export`); the folder has been loaded with loadTaskFolder, so a problem here is its line.
 */
export function readTaskManifest(dir: string): TaskManifest {
  const { folder, problems: walked } = readSkillFolder(resolve(dir), TASK_FOLDER);
  const problems: TaskProblem[] = walked.map((p) => ({ file: p.at, at: '', message: p.message }));
  const manifest = folder === null ? null : readManifest(folder, problems);
  if (manifest === null) throw taskFolderError(dir, problems);
  return manifest.m;
}

function readManifest(
  folder: SkillFolder,
  problems: TaskProblem[],
  instance: string | null = null,
): { file: string; m: TaskManifest; variants?: TemplateScope } | null {
  const present = MANIFEST_FILES.filter((f) => folder.files.has(f));
  const file = present[0];
  if (file === undefined) {
    problems.push({ file: '', at: '', message: `no ${MANIFEST_FILES.join(' or ')}: is this a task folder?` });
    return null;
  }
  if (present.length > 1) {
    problems.push({ file: '', at: '', message: `both ${present.join(' and ')}: keep one` });
    return null;
  }
  const text = readText(folder, file, problems);
  if (text === undefined) return null;
  const parsed = parseManifestText(file, text);
  if (!parsed.ok) {
    problems.push({ file, at: parsed.at, message: parsed.message });
    return null;
  }
  const scope = variantScope(parsed.value, folder, instance, problems);
  if (scope === undefined) return null;
  const value = scope === null ? parsed.value : filledManifest(parsed.value as object, scope);
  const checked = taskManifestSchema(folder).safeParse(value);
  if (!checked.success) {
    for (const p of problemsFromIssues(checked.error.issues, value)) problems.push({ file, ...p });
    return null;
  }
  return { file, m: checked.data, ...(scope === null ? {} : { variants: scope }) };
}

/**
 * The values `{{instance.*}}` stands for: null for a task without `[variants]` (nothing is
 * filled, its manifest is read as it is); undefined when instance.json is missing or broken.
 */
function variantScope(
  raw: unknown,
  folder: SkillFolder,
  instance: string | null,
  problems: TaskProblem[],
): TemplateScope | null | undefined {
  if (raw === null || typeof raw !== 'object' || !('variants' in raw)) return null;
  const taskId = basename(folder.dir);
  if (!folder.files.has(INSTANCE_FILE)) {
    problems.push({
      file: INSTANCE_FILE,
      at: '',
      message:
        'a task with [variants] keeps one instance of its own: the values of its files/ in instance.json',
    });
    return undefined;
  }
  let values: unknown;
  try {
    values = JSON.parse(folder.read(INSTANCE_FILE).toString('utf8'));
  } catch (err) {
    problems.push({ file: INSTANCE_FILE, at: '', message: `not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values)) {
    problems.push({ file: INSTANCE_FILE, at: '', message: 'must hold a JSON object' });
    return undefined;
  }
  return { taskId, instanceId: instance ?? 'of the folder', values: values as Record<string, unknown> };
}

/** The manifest with its flags' and scripts' strings filled; a missing key throws (one line). */
function filledManifest(raw: object, scope: TemplateScope): unknown {
  const out: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const key of TEMPLATED_KEYS) if (key in out) out[key] = fillStrings(out[key], scope);
  return out;
}

/** Where `{{instance.*}}` is filled: the checks and the scripted runs, nothing else of the manifest. */
const TEMPLATED_KEYS = ['flags', 'reference_solution', 'lures', 'alternates', 'cheats'] as const;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function readText(folder: SkillFolder, rel: string, problems: TaskProblem[]): string | undefined {
  if (!folder.files.has(rel)) {
    problems.push({ file: rel, at: '', message: 'not found in the task folder' });
    return undefined;
  }
  try {
    return UTF8.decode(folder.read(rel));
  } catch {
    problems.push({ file: rel, at: '', message: 'is not UTF-8 text (task files are text)' });
    return undefined;
  }
}

/**
 * The files under `sub`, at their paths below it. Modes are the two git keeps (executable or
 * not), so a checkout's umask never changes a task's version.
 */
function filesUnder(folder: SkillFolder, sub: string, problems: TaskProblem[]): TaskFile[] {
  const out: TaskFile[] = [];
  for (const [rel, f] of folder.files) {
    if (!rel.startsWith(`${sub}/`)) continue;
    const content = readText(folder, rel, problems);
    if (content === undefined) continue;
    const mode = (f.mode & 0o111) === 0 ? 0o644 : 0o755;
    out.push({ path: rel.slice(sub.length + 1), content, ...(mode === 0o644 ? {} : { mode }) });
  }
  return out;
}

/** `[[services]]` read, their build folders resolved and checked as a pod; null when there are none. */
function nativeServices(
  m: TaskManifest,
  dir: string,
  taskId: string,
  file: string,
  problems: TaskProblem[],
): PodSpec | null {
  const found: Findings = { problems: [], notes: [] };
  const decls = readNativeServices(m.services, found);
  const services =
    found.problems.length === 0
      ? resolveServices(decls, { root: dir, rootName: '', buildTimeoutSec: 600 }, found.problems)
      : [];
  // A native task is agent-bench's own format: what it does not honour is a mistake, not a note.
  for (const message of [...found.problems, ...found.notes]) problems.push({ file, at: '', message });
  return services.length === 0 ? null : { taskId, services };
}

/** Lures and cheats name flags that exist; run ids are unique within their list. */
function runProblems(m: TaskManifest): { at: string; message: string }[] {
  const ids = m.flags.map((f) => f.id);
  const out = expectProblems(
    [
      ['lures', m.lures],
      ['cheats', m.cheats],
    ],
    ids,
  );
  for (const [key, runs] of [
    ['lures', m.lures],
    ['alternates', m.alternates],
    ['cheats', m.cheats],
  ] as const) {
    const seen = new Set<string>();
    runs.forEach((run, i) => {
      if (seen.has(run.id))
        out.push({ at: `${key}[${i}].id`, message: `another of ${key} has the id "${run.id}"` });
      seen.add(run.id);
    });
  }
  return out;
}

function toLure(l: TaskManifest['lures'][number], folder: SkillFolder): Lure {
  return {
    id: l.id,
    description: l.description,
    script: resolveFiles(l.script, folder),
    expect: lureExpect(l.expect),
  };
}

/**
 * What the checks are, without their descriptions: the entries as parsed, a schema file an
 * artifact check names by its content, and the flag code's source.
 */
/** What `list` and reports show of the task; the fewest steps default to the reference's calls. */
function metaOf(m: TaskManifest, referenceSolution: readonly ScriptedTurn[]): SandboxTask['meta'] {
  return {
    domain: m.meta.domain,
    difficulty: m.meta.difficulty,
    description: m.meta.description,
    optimalSteps:
      m.meta.optimal_steps ?? Math.max(1, referenceSolution.filter((t) => t.calls.length > 0).length),
    ...(m.meta.heavy ? { heavy: true } : {}),
    ...(m.split === 'holdout' ? { split: 'holdout' as const } : {}),
  };
}

/** A variant task's generator digest, for its version; nothing for other tasks. */
function variantsDigest(variants: GeneratedVariants<SandboxTask> | undefined): { variants?: string } {
  return variants === undefined ? {} : { variants: variants.digest };
}

function checksDigest(
  entries: readonly FlagEntry[],
  folder: SkillFolder,
  flagCode: FlagCodeRef | null,
  reference: readonly ScriptedTurn[],
): string {
  const code = flagCode === null ? null : folder.read(FLAGS_FILE);
  const checks = entries.map(({ description: _, ...e }) => {
    if (e.collateral !== undefined)
      // The regions are what the reference changes: its edits are part of the check.
      return {
        ...e,
        reference: Object.fromEntries(referenceEdits(reference, e.collateral, folder)),
      };
    const schema = e.artifact?.json?.schema;
    if (e.artifact === undefined || typeof schema !== 'string') return e;
    return { ...e, artifact: { ...e.artifact, json: { schema: folder.read(schema).toString('utf8') } } };
  });
  return sha256(canonicalJson({ checks, code: code === null ? null : code.toString('utf8') }));
}
