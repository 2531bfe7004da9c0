/**
 * MCP servers a task declares (task.toml `[[mcp_servers]]`, Harbor's `[[environment.mcp_servers]]`,
 * a skill manifest's `mcp_servers`): their tools are offered to the model beside the built-in three,
 * named `<server>__<tool>` (src/agent/mcp/). The harness connects as the client at each trial's
 * start; one that cannot be reached makes the trial an error trial, never the model's failure.
 */

/** How the harness reaches a server. */
type McpTransport =
  /** A command started inside the trial's sandbox (as the agent user, in /workspace), spoken to over its stdin/stdout. */
  | { kind: 'stdio'; command: string; args: readonly string[]; env: Readonly<Record<string, string>> }
  /**
   * A server listening inside the sandbox's network namespace (a service, or a process the setup
   * started): each request is carried through the container to this URL (src/agent/mcp/sandbox-fetch.ts).
   */
  | { kind: 'streamable-http'; url: string }
  /** Served by the harness itself from recorded replies: a skill's backend that is not available offline. */
  | { kind: 'stub'; tools: readonly StubbedMcpTool[] };

export interface McpServerSpec {
  /** Prefixes its tools' names; unique within the task. */
  name: string;
  transport: McpTransport;
}

/** One tool of a stubbed server: what the model is shown, and what it answers. */
export interface StubbedMcpTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Readonly<Record<string, unknown>>;
  /**
   * The first reply whose `arguments` are all equal to the call's (a reply without any matches
   * every call); no match: the call is answered with an error naming the arguments it expected.
   */
  replies: readonly StubbedMcpReply[];
}

interface StubbedMcpReply {
  arguments?: Readonly<Record<string, unknown>>;
  text: string;
  isError: boolean;
}

/**
 * Which tools the model is offered: the built-in three and the MCP servers' (`all`), or only the
 * MCP servers' (`mcp_only`: a task about using a server's tools, with no shell to go around them).
 */
export type ToolChoice = 'all' | 'mcp_only';
