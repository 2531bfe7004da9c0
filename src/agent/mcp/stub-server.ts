/**
 * A stubbed MCP server (a skill's backend that is not available offline), served by the harness
 * itself with the SDK's server, linked to the client in memory: its tools as declared, each call
 * answered with the first recorded reply whose arguments it matches.
 */
import { isDeepStrictEqual } from 'node:util';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { StubbedMcpTool } from '../../tasks/mcp-servers.js';

/** Starts the stub; returns the client's end of the link. */
export async function startStubServer(name: string, tools: readonly StubbedMcpTool[]): Promise<Transport> {
  const server = new Server({ name, version: 'stub' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map(
      (t): Tool => ({
        name: t.name,
        description: t.description,
        inputSchema: { ...t.inputSchema, type: 'object' },
      }),
    ),
  }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const args = request.params.arguments ?? {};
    const tool = tools.find((t) => t.name === request.params.name);
    if (tool === undefined) return errorResult(`unknown tool ${request.params.name}`);
    const reply = tool.replies.find((r) => matches(r.arguments, args));
    if (reply === undefined)
      return errorResult(
        `no recorded reply for these arguments; recorded: ${tool.replies.map((r) => JSON.stringify(r.arguments ?? {})).join(' | ')}`,
      );
    return { content: [{ type: 'text', text: reply.text }], isError: reply.isError };
  });
  const [client, own] = InMemoryTransport.createLinkedPair();
  await server.connect(own);
  return client;
}

/** Every recorded argument equal to the call's (the call may give more). */
function matches(
  recorded: Readonly<Record<string, unknown>> | undefined,
  args: Record<string, unknown>,
): boolean {
  return Object.entries(recorded ?? {}).every(([k, v]) => isDeepStrictEqual(args[k], v));
}

function errorResult(text: string) {
  return { content: [{ type: 'text' as const, text }], isError: true };
}
