/**
 * task.toml (or task.json): everything about a task that is not a file of its own. The prompt is
 * instruction.md, the starting workspace files/, the hidden files hidden/. The scripted runs are
 * the skill manifest's (src/skills/manifest-scripts.ts): a list of tool calls `{name, arguments}`
 * (one turn each) or turns `{text, calls}`, where an argument `{"$file" = "solution/x.py"}` is the
 * text of that file of the folder.
 */
import { z } from 'zod';
import type { SkillFolder } from '../../manifest/folder.js';
import { TaskId } from '../../manifest/manifest-parts.js';
import { alternate, lure, scriptedTurns } from '../../manifest/manifest-scripts.js';
import { McpServerList } from '../../manifest/mcp-servers.js';
import { metamorphicEntry } from '../../manifest/metamorphic-entry.js';
import { variantsEntry } from '../../manifest/variants-entry.js';
import { flagEntry } from './flag-entry.js';

const Meta = z.strictObject({
  description: z.string().min(1),
  domain: z.string().min(1).default('general'),
  difficulty: z.enum(['easy', 'medium', 'hard']).default('medium'),
  /** Fewest turns a careful agent needs; default: the reference solution's turns with calls. */
  optimal_steps: z.int().min(1).optional(),
  /** Heavy tasks run last in `--tasks all`. */
  heavy: z.boolean().default(false),
});

export function taskManifestSchema(folder: SkillFolder) {
  return z
    .strictObject({
      /** Default: the folder's name. */
      id: TaskId.optional(),
      /** `holdout` keeps the task out of `--split dev` (a team's tuning set); default dev. */
      split: z.enum(['dev', 'holdout']).default('dev'),
      meta: Meta,
      max_turns: z.int().min(1).max(500),
      /** Workspace globs the agent may create, change or delete; anything else is tamper. */
      allowed_writes: z.array(z.string().min(1)).min(1),
      /** Globs that are neither tamper nor changes (caches); the tool caches are always added. */
      ignored: z.array(z.string().min(1)).default([]),
      watch_tool_caches: z.boolean().default(false),
      /** Shell commands run as the agent in /workspace after the files are placed. */
      setup_commands: z.array(z.string().min(1)).default([]),
      /** Seconds one check's run after the last turn may take (a harness test run, a harness command). */
      check_timeout_sec: z.int().min(1).max(3600).optional(),
      /** `[[services]]`: sidecars run as a pod around the sandbox, read by services/native.ts. */
      services: z.array(z.unknown()).optional(),
      /** MCP servers whose tools the model is offered, named `<server>__<tool>` (src/tasks/mcp-servers.ts). */
      mcp_servers: McpServerList.default([]),
      /** `mcp_only`: the MCP servers' tools alone, without execute_command, read_file and write_file. */
      tools: z.enum(['all', 'mcp_only']).default('all'),
      flags: z.array(flagEntry(folder)).min(1),
      reference_solution: scriptedTurns(folder).refine((turns) => turns.some((t) => t.calls.length > 0), {
        message: 'needs at least one tool call',
      }),
      lures: z.array(lure(folder)).min(1, 'needs at least one lure (a scripted run of a failure it catches)'),
      alternates: z.array(alternate(folder)).default([]),
      cheats: z.array(lure(folder)).default([]),
      variants: variantsEntry(folder).optional(),
      /** `[metamorphic.skip]`: operators of `validate --metamorphic` that do not apply, with why. */
      metamorphic: metamorphicEntry,
    })
    .refine((m) => m.tools === 'all' || m.mcp_servers.length > 0, {
      path: ['tools'],
      message: 'mcp_only needs at least one [[mcp_servers]]',
    });
}

export type TaskManifest = z.output<ReturnType<typeof taskManifestSchema>>;
