/**
 * A task folder read into a Task: the folder walked safely (src/skills/folder.ts), the manifest
 * parsed against its schema and against the folder's files, the starting workspace and the hidden
 * files read as text, the flags built, and the scripted runs resolved. Every problem is collected
 * and reported at once (one line each, naming the file and the field), before any container starts.
 */
import { basename, resolve } from 'node:path';
import { readSkillFolder, type SkillFolder } from '../../manifest/folder.js';
import { TaskId } from '../../manifest/manifest-parts.js';
import { expectProblems, lureExpect, resolveFiles } from '../../manifest/manifest-scripts.js';
import { problemsFromIssues } from '../../manifest/problems.js';
import type { PodSpec } from '../../sandbox/types.js';
import { canonicalJson, sha256 } from '../../util/hash.js';
import type { Lure, SandboxTask, TaskFile } from '../types.js';
import { buildFlags } from './build-flags.js';
import { flagCodeRef } from './flag-code.js';
import type { FlagEntry } from './flag-entry.js';
import {
  FILES_DIR,
  FLAGS_FILE,
  HIDDEN_FILES_DIR,
  INSTRUCTION_FILE,
  MANIFEST_FILES,
  TASK_FOLDER,
} from './layout.js';
import { type TaskManifest, taskManifestSchema } from './manifest.js';
import { parseManifestText } from './manifest-text.js';
import { type TaskProblem, taskFolderError } from './problems.js';
import { readNativeServices } from './services/native.js';
import { resolveServices } from './services/resolve.js';
import type { Findings } from './services/service-entry.js';

export function loadTaskFolder(dir: string): SandboxTask {
  const abs = resolve(dir);
  const { folder, problems: walked } = readSkillFolder(abs, TASK_FOLDER);
  const problems: TaskProblem[] = walked.map((p) => ({ file: p.at, at: '', message: p.message }));
  if (folder === null) throw taskFolderError(dir, problems);
  const manifest = readManifest(folder, problems);
  const prompt = readText(folder, INSTRUCTION_FILE, problems)?.replace(/\s+$/, '');
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
  const built = buildFlags(m.flags, folder, flagCode);
  const at = new Set<string>();
  for (const p of [...built.problems, ...runProblems(m)])
    if (!at.has(`${p.at}\n${p.message}`)) {
      at.add(`${p.at}\n${p.message}`);
      problems.push({ file, ...p });
    }
  const services = nativeServices(m, abs, id, file, problems);
  if (problems.length > 0) throw taskFolderError(dir, problems);
  const referenceSolution = resolveFiles(m.reference_solution, folder);
  return {
    kind: 'sandbox',
    id,
    meta: {
      domain: m.meta.domain,
      difficulty: m.meta.difficulty,
      description: m.meta.description,
      optimalSteps:
        m.meta.optimal_steps ?? Math.max(1, referenceSolution.filter((t) => t.calls.length > 0).length),
      ...(m.meta.heavy ? { heavy: true } : {}),
      ...(m.split === 'holdout' ? { split: 'holdout' as const } : {}),
    },
    prompt,
    maxTurns: m.max_turns,
    allowedWrites: m.allowed_writes,
    ignored: m.ignored,
    ...(m.watch_tool_caches ? { watchToolCaches: true } : {}),
    files,
    ...(m.setup_commands.length === 0 ? {} : { setupCommands: m.setup_commands }),
    ...(hiddenFiles.length === 0 ? {} : { hiddenFiles }),
    ...(m.mcp_servers.length === 0 ? {} : { mcpServers: m.mcp_servers }),
    ...(m.tools === 'all' ? {} : { tools: m.tools }),
    ...(services === null ? {} : { services }),
    flags: built.flags,
    referenceSolution,
    lures: m.lures.map((l) => toLure(l, folder)),
    alternates: m.alternates.map((a) => ({ ...a, script: resolveFiles(a.script, folder) })),
    cheats: m.cheats.map((l) => toLure(l, folder)),
    folder: {
      dir: abs,
      checksDigest: checksDigest(m.flags, folder, flagCode === null ? null : folder.read(FLAGS_FILE)),
      flagCode,
    },
  };
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
): { file: string; m: TaskManifest } | null {
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
  const checked = taskManifestSchema(folder).safeParse(parsed.value);
  if (!checked.success) {
    for (const p of problemsFromIssues(checked.error.issues, parsed.value)) problems.push({ file, ...p });
    return null;
  }
  return { file, m: checked.data };
}

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
function checksDigest(entries: readonly FlagEntry[], folder: SkillFolder, code: Buffer | null): string {
  const checks = entries.map(({ description: _, ...e }) => {
    const schema = e.artifact?.json?.schema;
    if (e.artifact === undefined || typeof schema !== 'string') return e;
    return { ...e, artifact: { ...e.artifact, json: { schema: folder.read(schema).toString('utf8') } } };
  });
  return sha256(canonicalJson({ checks, code: code === null ? null : code.toString('utf8') }));
}
