/**
 * The tools every model gets, in the order their specs are sent. The published tool contract of
 * agent-bench: names and arguments are part of the results format. Adding a tool is one module and
 * one line here; the specs, the names and the system prompt follow.
 */
import type { ToolSpec } from '../../models/types.js';
import type { Sandbox } from '../../sandbox/types.js';
import type { ToolOutcome } from '../../trial/conditions/call-hook.js';
import { executeCommand } from './execute-command.js';
import { readFile } from './read-file.js';
import type { AgentTool, DispatchLimits, ParsedArgs } from './tool.js';
import { writeFile } from './write-file.js';

/** A tool with its argument type hidden: parsing yields the run, ready to start. */
export interface RegisteredTool {
  spec: ToolSpec;
  prepare(
    args: Record<string, unknown>,
    sandbox: Sandbox,
    limits: DispatchLimits,
  ): ParsedArgs<() => Promise<ToolOutcome>>;
}

function register<A>(tool: AgentTool<A>): RegisteredTool {
  return {
    spec: tool.spec,
    prepare(args, sandbox, limits) {
      const parsed = tool.parse(args);
      return parsed.ok ? { ok: true, args: () => tool.run(parsed.args, sandbox, limits) } : parsed;
    },
  };
}

export const BUILTIN_TOOLS: readonly RegisteredTool[] = [
  register(executeCommand),
  register(readFile),
  register(writeFile),
];

export const TOOL_SPECS: readonly ToolSpec[] = BUILTIN_TOOLS.map((t) => t.spec);
export const TOOL_NAMES: readonly string[] = BUILTIN_TOOLS.map((t) => t.spec.name);

/** `tools`: what this trial offers (the built-in three, a task's MCP servers' tools beside or instead of them). */
export function findTool(
  name: string,
  tools: readonly RegisteredTool[] = BUILTIN_TOOLS,
): RegisteredTool | undefined {
  return tools.find((t) => t.spec.name === name);
}
