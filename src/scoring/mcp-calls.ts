/**
 * The MCP tool calls that are evidence: the call really ran (not refused, not answered with an
 * injected fault) and the server returned without error. How the model worded anything never
 * counts; only what it called and what came back.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CheckContext } from '../tasks/types.js';

export interface McpCallMatch {
  server: string;
  tool: string;
  /** Arguments the call must have had, each equal to the call's (it may have more). */
  argsMatch?: Readonly<Record<string, unknown>>;
}

/** Indices in ctx.calls of the calls that match and succeeded, in order. */
export function mcpCalls(ctx: Pick<CheckContext, 'calls'>, want: McpCallMatch): number[] {
  const out: number[] = [];
  ctx.calls.forEach((c, i) => {
    if (c.mcp?.server !== want.server || c.mcp.tool !== want.tool) return;
    if (c.invalid !== null || c.fault !== undefined || c.exit_code !== 0 || c.arguments === null) return;
    const args = c.arguments;
    if (Object.entries(want.argsMatch ?? {}).every(([k, v]) => isDeepStrictEqual(args[k], v))) out.push(i);
  });
  return out;
}
