/**
 * The task's MCP servers connected for one trial: the harness is their client (the SDK's), lists
 * their tools and offers each under its prefixed name. A server that does not start, connect or
 * list its tools is the harness's problem, not the model's: McpServerUnreachable, one line with the
 * end of what the server wrote to stderr, and the trial is an error trial.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type Sandbox, WORKSPACE_DIR } from '../../sandbox/types.js';
import type { McpServerSpec, ToolChoice } from '../../tasks/mcp-servers.js';
import { errorMessage, InfraError } from '../../util/errors.js';
import { HARNESS_VERSION } from '../../util/version.js';
import { BUILTIN_TOOLS, type RegisteredTool } from '../tools/registry.js';
import { mcpTool } from './mcp-tool.js';
import { sandboxFetch } from './sandbox-fetch.js';
import { SandboxStdioTransport } from './stdio-in-sandbox.js';
import { startStubServer } from './stub-server.js';
import { mcpToolName } from './tool-names.js';

class McpServerUnreachable extends InfraError {}

export interface McpToolbox {
  /** Every server's tools, in the order the servers are declared and each lists its own. */
  tools: readonly RegisteredTool[];
  /** Disconnects every server (a stdio server's stdin closes). */
  close(): Promise<void>;
}

/** A trial's toolbox when the task declares no server. */
const NO_MCP: McpToolbox = { tools: [], close: async () => {} };

/** The tools a trial offers: the built-in three then the servers' (`all`), or the servers' alone. */
export function offeredTools(choice: ToolChoice, mcp: McpToolbox): readonly RegisteredTool[] {
  return choice === 'mcp_only' ? mcp.tools : [...BUILTIN_TOOLS, ...mcp.tools];
}

interface Connected {
  client: Client;
  tools: Tool[];
}

export async function connectMcpServers(
  specs: readonly McpServerSpec[],
  sandbox: Sandbox,
  timeoutMs: number,
): Promise<McpToolbox> {
  if (specs.length === 0) return NO_MCP;
  const clients: Client[] = [];
  const close = async (): Promise<void> => {
    await Promise.allSettled(clients.map((c) => c.close()));
  };
  try {
    const tools: RegisteredTool[] = [];
    const names = new Set<string>();
    for (const spec of specs) {
      const { client, tools: listed } = await connectOne(spec, sandbox, timeoutMs);
      clients.push(client);
      for (const t of listed) {
        const name = mcpToolName(spec.name, t.name);
        if (names.has(name))
          throw new McpServerUnreachable(
            `MCP server ${spec.name}: its tool ${t.name} would be offered as ${name}, which another tool already is`,
          );
        names.add(name);
        const spec_ = { name, description: t.description ?? '', parameters: { ...t.inputSchema } };
        tools.push(mcpTool(client, { server: spec.name, tool: t.name }, spec_));
      }
    }
    return { tools, close };
  } catch (err) {
    await close();
    throw err;
  }
}

async function connectOne(spec: McpServerSpec, sandbox: Sandbox, timeoutMs: number): Promise<Connected> {
  let stderrTail = (): string => '';
  const fail = (err: unknown): McpServerUnreachable => {
    if (err instanceof McpServerUnreachable) return err;
    const said = telling(stderrTail());
    return new McpServerUnreachable(
      `MCP server ${spec.name} (${describe(spec)}) could not be reached: ${oneLine(errorMessage(err))}${said === '' ? '' : `; its stderr: ${said}`}`,
      { cause: err },
    );
  };
  const client = new Client({ name: 'agent-bench', version: HARNESS_VERSION });
  try {
    let transport: Transport;
    const t = spec.transport;
    if (t.kind === 'stdio') {
      if (sandbox.spawn === undefined) throw new Error('this sandbox cannot start a stdio server');
      const process = await sandbox.spawn([t.command, ...t.args], {
        user: 'agent',
        cwd: WORKSPACE_DIR,
        env: { ...t.env },
      });
      stderrTail = () => process.stderrTail();
      transport = new SandboxStdioTransport(process);
    } else if (t.kind === 'streamable-http') {
      transport = new StreamableHTTPClientTransport(new URL(t.url), {
        fetch: sandboxFetch(sandbox, timeoutMs),
      });
    } else {
      transport = await startStubServer(spec.name, t.tools);
    }
    await client.connect(transport, { timeout: timeoutMs });
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { client, tools };
  } catch (err) {
    await client.close().catch(() => {});
    throw fail(err);
  }
}

function describe(spec: McpServerSpec): string {
  const t = spec.transport;
  if (t.kind === 'stdio') return `stdio: ${[t.command, ...t.args].join(' ')}`;
  if (t.kind === 'streamable-http') return `streamable-http: ${t.url}`;
  return 'stub';
}

/**
 * The line of a dying server's stderr that says why: the last that names an error (a stack trace's
 * head, Python's last line), else the last one.
 */
function telling(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const line = lines.findLast((l) => /error|exception|fatal/i.test(l)) ?? lines.at(-1) ?? '';
  return line.slice(0, 300);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
