/**
 * An MCP server entry, as every manifest format writes it: task.toml's `[[mcp_servers]]`, Harbor's
 * `[[environment.mcp_servers]]` and a skill manifest's `mcp_servers`. Harbor's keys (name,
 * transport, command and args, or url) plus env, and for a skill's stubbed server its tools with
 * recorded replies. Parsed once into src/tasks/mcp-servers.ts's McpServerSpec.
 */
import { z } from 'zod';
import type { McpServerSpec, StubbedMcpTool } from '../tasks/mcp-servers.js';

const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'letters, digits, _ . - (at most 64)');

const StubReply = z.strictObject({
  /** The call's arguments this reply answers (each equal); absent: any call. */
  arguments: z.record(z.string(), z.unknown()).optional(),
  text: z.string(),
  is_error: z.boolean().default(false),
});

const StubTool = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(''),
  input_schema: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
  replies: z.array(StubReply).min(1),
});

const McpServerEntry = z
  .strictObject({
    name: Name,
    /** Default: stdio with a command, streamable-http with a url, stub with tools. */
    transport: z.enum(['stdio', 'streamable-http', 'stub']).optional(),
    command: z.string().min(1).optional(),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    url: z
      .url({ protocol: /^http$/, error: 'an http:// URL (the server listens inside the sandbox)' })
      .optional(),
    tools: z.array(StubTool).min(1).optional(),
  })
  .transform((e, ctx): McpServerSpec => {
    const transport =
      e.transport ?? (e.command !== undefined ? 'stdio' : e.url !== undefined ? 'streamable-http' : 'stub');
    const needs = { stdio: 'command', 'streamable-http': 'url', stub: 'tools' } as const;
    const given = (['command', 'url', 'tools'] as const).filter((k) => e[k] !== undefined);
    if (given.length !== 1 || given[0] !== needs[transport]) {
      ctx.addIssue({
        code: 'custom',
        message: `a ${transport} server needs ${needs[transport]} and none of ${Object.values(needs)
          .filter((k) => k !== needs[transport])
          .join(', ')}`,
      });
      return z.NEVER;
    }
    if (transport === 'stdio')
      return {
        name: e.name,
        transport: { kind: 'stdio', command: e.command ?? '', args: e.args, env: e.env },
      };
    if (transport === 'streamable-http')
      return { name: e.name, transport: { kind: 'streamable-http', url: e.url ?? '' } };
    return { name: e.name, transport: { kind: 'stub', tools: (e.tools ?? []).map(stubTool) } };
  });

/** The servers of one task: names unique (they prefix the tools' names). */
export const McpServerList = z.array(McpServerEntry).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((s, i) => {
    if (seen.has(s.name))
      ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `another server is named ${s.name}` });
    seen.add(s.name);
  });
});

function stubTool(t: z.output<typeof StubTool>): StubbedMcpTool {
  return {
    name: t.name,
    description: t.description,
    inputSchema: t.input_schema,
    replies: t.replies.map((r) => ({
      ...(r.arguments === undefined ? {} : { arguments: r.arguments }),
      text: r.text,
      isError: r.is_error,
    })),
  };
}

/** A skill manifest's `required_mcp_calls` item: a tool of a declared server the model must call, and that must answer. */
export const RequiredMcpCall = z.strictObject({
  /** Default: `<server>__<tool>`. The flag is `mcp:<id>`. */
  id: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .optional(),
  server: Name,
  tool: z.string().min(1),
  /** Arguments the call must have had, each equal to the call's (it may have more). */
  args_match: z.record(z.string(), z.unknown()).optional(),
});
