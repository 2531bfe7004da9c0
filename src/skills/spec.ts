/**
 * A parsed manifest turned, once, into what the task is built from: regular expressions compiled,
 * checks flattened one per flag with unique ids, stubs resolved to bytes, scripted runs with their
 * `$file` arguments read, defaults applied. Problems only visible across keys are returned here.
 */

import { type CheckSpec, checkSpecs } from '../manifest/check-specs.js';
import type { CommandGroup } from '../manifest/command-match.js';
import type { SkillFolder } from '../manifest/folder.js';
import { lureExpect, resolveFiles } from '../manifest/manifest-scripts.js';
import type { Problem } from '../manifest/problems.js';
import { toRegExp } from '../manifest/regex.js';
import type { ScriptedTurn } from '../models/scripted.js';
import { matchesAnyWorkspaceGlob } from '../scoring/glob.js';
import type { McpCallMatch } from '../scoring/mcp-calls.js';
import type { McpServerSpec } from '../tasks/mcp-servers.js';
import type { MetamorphicSkips } from '../tasks/metamorphic.js';
import type { Alternate, Lure, TaskMeta } from '../tasks/types.js';
import type { Manifest } from './manifest.js';
import { type StubSpec, stubLanguage } from './stubs.js';

export interface HarnessCheckSpec {
  id: string;
  command: string;
  exitCode: number;
  description: string | null;
}

export interface SkillSpec {
  id: string;
  goal: string;
  /** The goal for the no-skill variant (`--skill-ab`). */
  goalWithoutSkill: string;
  promptFile: { name: string; text: string } | null;
  reads: string[];
  commands: CommandGroup[];
  orderedCommands: boolean;
  artifacts: string[];
  checks: CheckSpec[];
  harnessChecks: HarnessCheckSpec[];
  allowedWrites: string[];
  ignored: string[];
  watchToolCaches: boolean;
  maxTurns: number;
  stubs: StubSpec[];
  mcpServers: McpServerSpec[];
  /** Calls of the MCP servers' tools the model must make (a flag `mcp:<id>` each). */
  mcpCalls: (McpCallMatch & { id: string })[];
  referenceSolution: ScriptedTurn[] | null;
  alternates: Alternate[];
  lures: Lure[];
  cheats: Lure[];
  metamorphicSkips: MetamorphicSkips;
  meta: TaskMeta;
}

const DEFAULT_GOAL = 'Execute the skill as documented.';
const DEFAULT_MAX_TURNS = 20;

export function toSpec(
  m: Manifest,
  folder: SkillFolder,
  folderName: string,
): { spec: SkillSpec; problems: Problem[] } {
  const problems: Problem[] = [];
  const stubs = toStubs(m, folder, problems);
  const artifacts = m.expected_artifacts ?? [];
  problems.push(...commandProblems(m, folder, artifacts));
  const fixedOutputs = stubs.flatMap((s) => s.outputs.flatMap((o) => (o.path === null ? [] : [o.path])));
  const referenceSolution =
    m.reference_solution === undefined ? null : resolveFiles(m.reference_solution, folder);
  const goal = m.goal ?? DEFAULT_GOAL;
  const spec: SkillSpec = {
    id: m.id ?? `skill_run_v1_${folderName.replace(/[^A-Za-z0-9_]+/g, '_')}`,
    goal,
    goalWithoutSkill: m.goal_without_skill ?? withoutSkillMention(goal),
    promptFile:
      m.prompt_file === undefined
        ? null
        : { name: m.prompt_file, text: folder.read(m.prompt_file).toString('utf8') },
    reads: m.required_reads ?? [],
    commands: (m.required_commands ?? []).map((c, i) => ({
      id: c.id ?? String(i),
      patterns: (c.any_of ?? (c.pattern === undefined ? [] : [c.pattern])).map(toRegExp),
      exitCode: c.exit_code ?? null,
      recheck: c.recheck === true,
      description: c.description ?? null,
      writes: c.writes ?? [],
      reads: c.reads ?? [],
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
    watchToolCaches: m.watch_tool_caches ?? false,
    maxTurns: m.max_turns ?? DEFAULT_MAX_TURNS,
    stubs,
    mcpServers: m.mcp_servers ?? [],
    mcpCalls: toMcpCalls(m, problems),
    referenceSolution,
    alternates: (m.alternates ?? []).map((a) => ({ ...a, script: resolveFiles(a.script, folder) })),
    lures: (m.lures ?? []).map((l) => toLure(l, folder)),
    cheats: (m.cheats ?? []).map((l) => toLure(l, folder)),
    metamorphicSkips: m.metamorphic?.skip ?? {},
    meta: {
      domain: m.meta?.domain ?? 'skill',
      difficulty: m.meta?.difficulty ?? 'medium',
      description: m.meta?.description ?? goal,
      optimalSteps:
        m.meta?.optimal_steps ??
        Math.max(1, (referenceSolution ?? []).filter((t) => t.calls.length > 0).length),
      ...(m.meta?.heavy === true ? { heavy: true } : {}),
    },
  };
  return { spec, problems };
}

/** What a required command's writes and reads name that the manifest does not have. */
function commandProblems(m: Manifest, folder: SkillFolder, artifacts: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  for (const [i, c] of (m.required_commands ?? []).entries())
    for (const w of c.writes ?? [])
      if (!artifacts.includes(w))
        problems.push({
          at: `required_commands[${i}].writes`,
          message: `${w} is not one of expected_artifacts`,
        });
  for (const [i, c] of (m.required_commands ?? []).entries()) {
    const at = `required_commands[${i}].reads`;
    if (c.reads !== undefined && (c.writes ?? []).length === 0)
      problems.push({
        at,
        message: 'needs writes: the inputs are judged on the run that writes an artifact',
      });
    for (const r of c.reads ?? [])
      if (r.startsWith('skill/') && !folder.files.has(r.slice('skill/'.length)))
        problems.push({ at, message: `${r} is not a file of the ${folder.noun} folder (mounted at skill/)` });
  }
  return problems;
}

/** The stubbed scripts with their outputs read; a script in a language that cannot be stubbed is a problem. */
function toStubs(m: Manifest, folder: SkillFolder, problems: Problem[]): StubSpec[] {
  return Object.entries(m.stubs ?? {}).flatMap(([script, s]): StubSpec[] => {
    const firstLine = folder.read(script).toString('utf8').split('\n', 1)[0] ?? '';
    const language = stubLanguage(script, firstLine);
    if (language === null) {
      problems.push({
        at: `stubs[${JSON.stringify(script)}]`,
        message: 'only shell, Python and Node scripts can be stubbed',
      });
      return [];
    }
    const outputs = s.outputs.map((o) => ({
      path: o.path ?? null,
      arg: o.arg ?? null,
      content:
        o.from !== undefined ? folder.read(o.from) : Buffer.from(o.content ?? `stub output of ${script}\n`),
    }));
    const usage = s.usage === undefined ? {} : { usage: s.usage };
    return [{ script, language, outputs, stdout: s.stdout ?? '', exitCode: s.exit_code ?? 0, ...usage }];
  });
}

/** The MCP calls the model must make; a call of a server the manifest does not declare is a problem. */
function toMcpCalls(m: Manifest, problems: Problem[]): SkillSpec['mcpCalls'] {
  return (m.required_mcp_calls ?? []).map((c, i) => {
    if (!(m.mcp_servers ?? []).some((srv) => srv.name === c.server))
      problems.push({
        at: `required_mcp_calls[${i}].server`,
        message: `no mcp_servers entry named ${c.server}`,
      });
    return {
      id: c.id ?? `${c.server}__${c.tool}`,
      server: c.server,
      tool: c.tool,
      ...(c.args_match === undefined ? {} : { argsMatch: c.args_match }),
    };
  });
}

function toLure(l: NonNullable<Manifest['lures']>[number], folder: SkillFolder): Lure {
  return {
    ...l,
    script: resolveFiles(l.script, folder),
    expect: lureExpect(l.expect),
  };
}

/**
 * The goal minus a trailing pointer to the skill ("... using the installed skill", "..., following
 * the skill's steps"), for the no-skill variant; `goal_without_skill` says it exactly instead.
 */
function withoutSkillMention(goal: string): string {
  // The goal is the manifest author's: a match starts at a comma or where spaces start, never
  // inside a run of them (each such start would rescan the run).
  const pointer =
    /(?:,|(?<!\s))\s+(?:using|with|via|following|per|according to)\s+(?:the\s+)?(?:installed\s+|bundled\s+)?skill(?:'s)?(?:\s+(?:steps|docs|documentation|instructions))?(?=[.!]?\s*$)/i;
  return goal.replace(pointer, '');
}

/** Declared products are allowed writes: a manifest that forgot them would always be tamper. */
function allowedWrites(declared: readonly string[], products: readonly string[]): string[] {
  const missing = products.filter((p) => !matchesAnyWorkspaceGlob(declared, p)).map((p) => `/${p}`);
  return [...new Set([...declared, ...missing])];
}
