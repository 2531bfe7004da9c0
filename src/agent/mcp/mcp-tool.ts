/**
 * One tool of a connected MCP server as the model's tool: its spec under its prefixed name, any
 * JSON object of arguments (the server checks them), and its result logged like a built-in call's
 * output: the text it returned in stdout (exit 0), or, when the server said the call failed, the
 * text in stderr (exit 1). A call the server never answered in time is timed out; one that failed
 * in the protocol (bad arguments, the server gone) is answered with the error: a running server
 * is within the agent's reach (stdio servers run as the agent), so the model is measured on it.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from '../../models/types.js';
import type { McpCallRef } from '../../results/trial.js';
import type { ToolOutcome } from '../../trial/conditions/call-hook.js';
import { errorMessage } from '../../util/errors.js';
import { capHeadTail } from '../../util/text-cap.js';
import type { RegisteredTool } from '../tools/registry.js';

export function mcpTool(client: Client, ref: McpCallRef, spec: ToolSpec): RegisteredTool {
  return {
    spec,
    prepare: (args, _sandbox, limits) => ({
      ok: true,
      args: () => callMcpTool(client, ref, args, limits.commandTimeoutMs, limits.modelStdoutChars),
    }),
  };
}

async function callMcpTool(
  client: Client,
  ref: McpCallRef,
  args: Record<string, unknown>,
  timeoutMs: number,
  maxChars: number,
): Promise<ToolOutcome> {
  const started = Date.now();
  const outcome = (exit: number | null, text: string, isError: boolean, timedOut = false): ToolOutcome => {
    const shown = capHeadTail(text, maxChars);
    return {
      log: {
        invalid: null,
        exit_code: exit,
        stdout: isError ? '' : shown.text,
        stderr: isError ? shown.text : '',
        truncated: shown.cutChars > 0,
        timed_out: timedOut,
        elapsed_ms: Date.now() - started,
        mcp: ref,
      },
      reply: isError ? `Error: ${shown.text}` : shown.text,
    };
  };
  try {
    const result = await client.callTool({ name: ref.tool, arguments: args }, undefined, {
      timeout: timeoutMs,
    });
    const text = resultText(result.content);
    return result.isError === true ? outcome(1, text, true) : outcome(0, text, false);
  } catch (err) {
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
      return outcome(null, `${spec(ref)} got no answer within ${Math.round(timeoutMs / 1000)} s`, true, true);
    return outcome(null, `${spec(ref)} failed: ${errorMessage(err)}`, true);
  }
}

function spec(ref: McpCallRef): string {
  return `the MCP tool ${ref.tool} of ${ref.server}`;
}

/** The text parts as they are; other parts named by their type (a model here reads text only). */
function resultText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part !== 'object' || part === null) return '';
      const p = part as { type?: unknown; text?: unknown; mimeType?: unknown; resource?: { text?: unknown } };
      if (p.type === 'text' && typeof p.text === 'string') return p.text;
      if (p.type === 'resource' && typeof p.resource?.text === 'string') return p.resource.text;
      return `[${String(p.type)}${typeof p.mimeType === 'string' ? ` ${p.mimeType}` : ''}]`;
    })
    .join('\n');
}
