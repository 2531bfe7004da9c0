/**
 * bench_manifest.json, next to SKILL.md. The published keys, unchanged: id, goal, prompt_file,
 * required_reads, required_commands, expected_artifacts, artifact_checks ({file, contains}),
 * allowed_writes, max_turns, stubs ({outputs}). Extensions, all optional:
 * - required_commands items may be objects: {pattern | any_of, exit_code, recheck, id, description};
 * - ordered_commands: the command groups must first run in the listed order;
 * - artifact_checks: not_contains, regex, json (true or {schema}), html, min_bytes, image, and what
 *   the artifact means: facts, no_placeholders, no_external, not_copy_of, derived_from
 *   (src/manifest/meaning/);
 * - harness_checks: [{command, exit_code}] the harness runs after the last turn;
 * - stubs: outputs as {path | arg, from | content}, canned stdout and exit_code, and the usage the
 *   real script's parsing accepts (any other argv: its usage, exit 2);
 * - reference_solution, alternates, lures and cheats (scripted runs, see manifest-scripts.ts),
 *   ignored, meta;
 * - goal_without_skill: the goal as the no-skill variant of `--skill-ab` states it;
 * - mcp_servers: MCP servers whose tools the model is offered (src/manifest/mcp-servers.ts), a stubbed
 *   one ({name, tools: [{name, description, input_schema, replies: [{arguments, text}]}]}) served by
 *   agent-bench itself; required_mcp_calls: [{server, tool, args_match}], a flag `mcp:<server>__<tool>` each.
 * - variants: {generator, count_hint, description}, a fresh instance per trial (./variants.ts).
 * Keys starting with `_` or `$`, and description/name/version, are notes and never checked.
 */
import { z } from 'zod';
import type { SkillFolder } from '../manifest/folder.js';
import {
  artifactCheck,
  HarnessCheck,
  OutputPath,
  RelPath,
  RequiredCommand,
  skillFile,
  stub,
  TaskId,
} from '../manifest/manifest-parts.js';
import { alternate, lure, scriptedTurns } from '../manifest/manifest-scripts.js';
import { McpServerList, RequiredMcpCall } from '../manifest/mcp-servers.js';
import { metamorphicEntry } from '../manifest/metamorphic-entry.js';
import { variantsEntry } from '../manifest/variants-entry.js';

const NOTE_KEYS = new Set(['description', 'name', 'version']);

const Meta = z.strictObject({
  domain: z.string().min(1).optional(),
  difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  description: z.string().min(1).optional(),
  optimal_steps: z.int().min(1).optional(),
  heavy: z.boolean().optional(),
});

export function manifestSchema(folder: SkillFolder) {
  const stubs = z.record(RelPath.pipe(skillFile(folder, { mounted: true })), stub(folder));
  return z.preprocess(
    withoutNotes,
    z.strictObject({
      id: TaskId.optional(),
      goal: z.string().min(1).optional(),
      goal_without_skill: z.string().min(1).optional(),
      prompt_file: skillFile(folder, { mounted: true }).optional(),
      required_reads: z.array(RelPath.superRefine(mountedRead(folder))).optional(),
      required_commands: z.array(RequiredCommand).optional(),
      ordered_commands: z.boolean().optional(),
      expected_artifacts: z.array(OutputPath).optional(),
      artifact_checks: z.array(artifactCheck(folder)).optional(),
      harness_checks: z.array(HarnessCheck).optional(),
      allowed_writes: z.array(z.string().min(1)).optional(),
      ignored: z.array(z.string().min(1)).optional(),
      watch_tool_caches: z.boolean().optional(),
      max_turns: z.int().min(1).max(500).optional(),
      stubs: stubs.optional(),
      mcp_servers: McpServerList.optional(),
      required_mcp_calls: z.array(RequiredMcpCall).optional(),
      reference_solution: scriptedTurns(folder).optional(),
      alternates: z.array(alternate(folder)).optional(),
      lures: z.array(lure(folder)).optional(),
      cheats: z.array(lure(folder)).optional(),
      meta: Meta.optional(),
      /** A generator of instances (./variants.ts): `generate SEED OUTDIR`, as a task folder's. */
      variants: variantsEntry(folder).optional(),
      /** `validate --metamorphic` operators (or runs) that do not apply, with why (a task.toml's `[metamorphic.skip]`). */
      metamorphic: metamorphicEntry,
    }),
  );
}

export type Manifest = z.output<ReturnType<typeof manifestSchema>>;

function withoutNotes(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  return Object.fromEntries(
    Object.entries(v).filter(([k]) => !k.startsWith('_') && !k.startsWith('$') && !NOTE_KEYS.has(k)),
  );
}

/** A required read under skill/ must be a file the agent can see there. */
function mountedRead(folder: SkillFolder) {
  return (p: string, ctx: z.RefinementCtx): void => {
    if (p !== 'skill' && !p.startsWith('skill/')) return;
    const rel = p.slice('skill/'.length);
    if (!folder.files.has(rel)) ctx.addIssue({ code: 'custom', message: 'file not found in skill folder' });
    else if (rel === 'bench_manifest.json' || rel.startsWith('.bench/'))
      ctx.addIssue({ code: 'custom', message: 'is a bench-only file, which the agent never sees' });
  };
}
