/**
 * The tools every model gets, in the order their specs are sent. The published tool contract of
 * agent-bench: names and arguments are part of the results format. Adding a tool is one module and
 * one line here; the specs, the names and the system prompt follow.
 */
import type { ToolSpec } from '../../models/types.js';
import type { Sandbox } from '../../sandbox/types.js';
import { executeCommand } from './execute-command.js';
import { readFile } from './read-file.js';
import type { AgentTool, DispatchLimits, ParsedArgs, ToolOutcome } from './tool.js';
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

const TOOLS: readonly RegisteredTool[] = [register(executeCommand), register(readFile), register(writeFile)];

export const TOOL_SPECS: readonly ToolSpec[] = TOOLS.map((t) => t.spec);
export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.spec.name);

export function findTool(name: string): RegisteredTool | undefined {
  return TOOLS.find((t) => t.spec.name === name);
}
