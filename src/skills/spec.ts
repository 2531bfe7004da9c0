/**
 * A parsed manifest turned, once, into what the task is built from: regular expressions compiled,
 * checks flattened one per flag with unique ids, stubs resolved to bytes, scripted runs with their
 * `$file` arguments read, defaults applied. Problems only visible across keys are returned here.
 */
import { matchesAnyWorkspaceGlob } from '../scoring/glob.js';
import type { Lure, ScriptedTurn, TaskMeta } from '../tasks/types.js';
import type { ContentCheck } from './artifact-checks.js';
import type { CommandGroup } from './command-match.js';
import type { SkillFolder } from './folder.js';
import type { JsonSchema } from './json-schema.js';
import type { Manifest } from './manifest.js';
import { fileRef } from './manifest-scripts.js';
import type { Problem } from './problems.js';
import { toRegExp } from './regex.js';
import { type StubSpec, stubLanguage } from './stubs.js';

export interface CheckSpec {
  id: string;
  file: string;
  check: ContentCheck;
}

export interface HarnessCheckSpec {
  id: string;
  command: string;
  exitCode: number;
  description: string | null;
}

export interface SkillSpec {
  id: string;
  goal: string;
  promptFile: { name: string; text: string } | null;
  reads: string[];
  commands: CommandGroup[];
  orderedCommands: boolean;
  artifacts: string[];
  checks: CheckSpec[];
  harnessChecks: HarnessCheckSpec[];
  allowedWrites: string[];
  ignored: string[];
  maxTurns: number;
  stubs: StubSpec[];
  referenceSolution: ScriptedTurn[] | null;
  lures: Lure[];
  meta: TaskMeta;
}

export const DEFAULT_GOAL = 'Execute the skill as documented.';
export const DEFAULT_MAX_TURNS = 20;

export function toSpec(m: Manifest, folder: SkillFolder, folderName: string): { spec: SkillSpec; problems: Problem[] } {
  const problems: Problem[] = [];
  const stubs = Object.entries(m.stubs ?? {}).flatMap(([script, s]): StubSpec[] => {
    const firstLine = folder.read(script).toString('utf8').split('\n', 1)[0] ?? '';
    const language = stubLanguage(script, firstLine);
    if (language === null) {
      problems.push({ at: `stubs[${JSON.stringify(script)}]`, message: 'only shell, Python and Node scripts can be stubbed' });
      return [];
    }
    const outputs = s.outputs.map((o) => ({
      path: o.path ?? null,
      arg: o.arg ?? null,
      content: o.from !== undefined ? folder.read(o.from) : Buffer.from(o.content ?? `stub output of ${script}\n`),
    }));
    return [{ script, language, outputs, stdout: s.stdout ?? '', exitCode: s.exit_code ?? 0 }];
  });
  const artifacts = m.expected_artifacts ?? [];
  const fixedOutputs = stubs.flatMap((s) => s.outputs.flatMap((o) => (o.path === null ? [] : [o.path])));
  const referenceSolution = m.reference_solution === undefined ? null : withFiles(m.reference_solution, folder);
  const goal = m.goal ?? DEFAULT_GOAL;
  const spec: SkillSpec = {
    id: m.id ?? `skill_run_v1_${folderName.replace(/[^A-Za-z0-9_]+/g, '_')}`,
    goal,
    promptFile:
      m.prompt_file === undefined ? null : { name: m.prompt_file, text: folder.read(m.prompt_file).toString('utf8') },
    reads: m.required_reads ?? [],
    commands: (m.required_commands ?? []).map((c, i) => ({
      id: c.id ?? String(i),
      patterns: (c.any_of ?? (c.pattern === undefined ? [] : [c.pattern])).map(toRegExp),
      exitCode: c.exit_code ?? null,
      recheck: c.recheck === true,
      description: c.description ?? null,
    })),
    orderedCommands: m.ordered_commands === true,
    artifacts,
    checks: checkSpecs(m.artifact_checks ?? [], folder),
    harnessChecks: (m.harness_checks ?? []).map((h, i) => ({
      id: h.id ?? String(i),
      command: h.command,
      exitCode: h.exit_code,
      description: h.description ?? null,
    })),
    allowedWrites: allowedWrites(m.allowed_writes ?? [], [...artifacts, ...fixedOutputs]),
    ignored: [...(m.ignored ?? [])],
    maxTurns: m.max_turns ?? DEFAULT_MAX_TURNS,
    stubs,
    referenceSolution,
    lures: (m.lures ?? []).map((l) => ({ ...l, script: withFiles(l.script, folder), expect: stripUndefined(l.expect) })),
    meta: {
      domain: m.meta?.domain ?? 'skill',
      difficulty: m.meta?.difficulty ?? 'medium',
      description: m.meta?.description ?? goal,
      optimalSteps: m.meta?.optimal_steps ?? Math.max(1, (referenceSolution ?? []).filter((t) => t.calls.length > 0).length),
      ...(m.meta?.heavy === true ? { heavy: true } : {}),
    },
  };
  return { spec, problems };
}

/** Declared products are allowed writes: a manifest that forgot them would always be tamper. */
function allowedWrites(declared: readonly string[], products: readonly string[]): string[] {
  const missing = products.filter((p) => !matchesAnyWorkspaceGlob(declared, p)).map((p) => `/${p}`);
  return [...new Set([...declared, ...missing])];
}

type WireCheck = NonNullable<Manifest['artifact_checks']>[number];

/**
 * One check per flag. Ids keep the published `check:<needle>` form; an entry with an `id` names its
 * flags `check:<id>` (one check) or `check:<id>:<label>`; collisions get `#2`, `#3`.
 */
function checkSpecs(entries: readonly WireCheck[], folder: SkillFolder): CheckSpec[] {
  const out: CheckSpec[] = [];
  const used = new Map<string, number>();
  for (const e of entries) {
    const checks: [string, ContentCheck][] = [
      ...(e.contains ?? []).map((needle): [string, ContentCheck] => [short(needle), { kind: 'contains', needle }]),
      ...(e.not_contains ?? []).map((needle): [string, ContentCheck] => [`not:${short(needle)}`, { kind: 'not_contains', needle }]),
      ...(e.regex ?? []).map((source): [string, ContentCheck] => [`/${short(source)}/`, { kind: 'regex', re: toRegExp(source) }]),
    ];
    if (e.json !== undefined) checks.push([`${e.file}:json`, { kind: 'json', schema: schemaOf(e.json.schema, folder) }]);
    if (e.html === true) checks.push([`${e.file}:html`, { kind: 'html' }]);
    if (e.min_bytes !== undefined) checks.push([`${e.file}:size>=${e.min_bytes}`, { kind: 'min_bytes', bytes: e.min_bytes }]);
    if (e.image !== undefined) checks.push([`${e.file}:image`, { kind: 'image', spec: stripUndefined(e.image) }]);
    for (const [label, check] of checks) {
      const named = e.id === undefined ? label : checks.length === 1 ? e.id : `${e.id}:${label}`;
      const base = `check:${named}`;
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      out.push({ id: n === 1 ? base : `${base}#${n}`, file: e.file, check });
    }
  }
  return out;
}

/** The published label: the text, or its first 23 characters and an ellipsis. */
function short(s: string): string {
  return s.length <= 24 ? s : `${s.slice(0, 23)}…`;
}

function schemaOf(ref: unknown, folder: SkillFolder): JsonSchema | null {
  if (ref === undefined) return null;
  const value: unknown = typeof ref === 'string' ? JSON.parse(folder.read(ref).toString('utf8')) : ref;
  return value as JsonSchema;
}

function withFiles(turns: readonly { text?: string | undefined; calls: { name: string; arguments: Record<string, unknown> }[] }[], folder: SkillFolder): ScriptedTurn[] {
  return turns.map((t) => ({
    ...(t.text === undefined ? {} : { text: t.text }),
    calls: t.calls.map((c) => ({
      name: c.name,
      arguments: Object.fromEntries(
        Object.entries(c.arguments).map(([k, v]) => {
          const file = fileRef(v);
          return [k, file === null ? v : folder.read(file).toString('utf8')];
        }),
      ),
    })),
  }));
}

function stripUndefined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}
