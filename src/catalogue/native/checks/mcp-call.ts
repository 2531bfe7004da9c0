/**
 * `mcp_call`: the model called this tool of this MCP server, with these arguments, and it returned
 * without error (src/scoring/mcp-calls.ts), optionally before any of these files first changed.
 */
import { mcpCalls } from '../../../scoring/mcp-calls.js';
import type { CheckContext, FlagOutcome } from '../../../tasks/types.js';
import type { FlagEntry } from '../flag-entry.js';
import { beforeEvery, changesOf } from './changes.js';

type McpCallSpec = NonNullable<FlagEntry['mcp_call']>;

export function mcpCallCheck(spec: McpCallSpec) {
  const order = spec.before_first_change_of ?? [];
  const what = `${spec.server}'s ${spec.tool}${spec.args_match === undefined ? '' : ` with ${JSON.stringify(spec.args_match)}`}`;
  return (ctx: CheckContext): FlagOutcome => {
    const changes = changesOf(ctx, order, 'first');
    const calls = mcpCalls(ctx, {
      server: spec.server,
      tool: spec.tool,
      ...(spec.args_match === undefined ? {} : { argsMatch: spec.args_match }),
    });
    const first = calls.find((call) => beforeEvery(ctx, { call, step: 0 }, changes));
    if (first !== undefined) return { reached: true, turn: ctx.calls[first]?.turn ?? null };
    if (calls.length === 0) return { reached: false, detail: `no successful call of ${what}` };
    return { reached: false, detail: `${what} was called only after ${order.join(', ')} changed` };
  };
}
