/**
 * A task's MCP server in whole trials through the real loop, without Docker: a stubbed server (served
 * by the harness with the SDK, recorded replies) offers its tools beside the built-in three or alone,
 * its calls are logged and are evidence, and the noisy condition's faults reach them too.
 */
import { describe, expect, it } from 'vitest';
import { mcpCalls } from '../../../src/kit/index.js';
import { createScriptedModel, type ScriptedTurn } from '../../../src/models/scripted.js';
import type { ChatModel, ToolSpec } from '../../../src/models/types.js';
import type { McpServerSpec } from '../../../src/tasks/mcp-servers.js';
import { FLAG_JUDGE, SANDBOX_ENVIRONMENT, type SandboxTask } from '../../../src/tasks/types.js';
import { noisy, trial } from '../trials.js';

const WEATHER: McpServerSpec = {
  name: 'weather',
  transport: {
    kind: 'stub',
    tools: [
      {
        name: 'forecast',
        description: 'Tomorrow’s forecast for a city.',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        replies: [
          { arguments: { city: 'Oslo' }, text: 'Oslo: rain, 9°C', isError: false },
          { arguments: { city: 'Atlantis' }, text: 'no such city', isError: true },
        ],
      },
    ],
  },
};

const TASK: SandboxTask = {
  kind: 'sandbox',
  id: 'forecast_v1',
  meta: { domain: 'test', difficulty: 'easy', description: 'forecast', optimalSteps: 1 },
  prompt: 'What is the weather in Oslo tomorrow?',
  maxTurns: 5,
  environment: SANDBOX_ENVIRONMENT,
  judge: FLAG_JUDGE,
  mountedFiles: [],
  allowedWrites: [],
  ignored: [],
  files: [],
  mcpServers: [WEATHER],
  flags: [
    {
      id: 'asked',
      description: 'asked the weather server for Oslo',
      kind: 'process',
      check: (ctx) => {
        const [first] = mcpCalls(ctx, { server: 'weather', tool: 'forecast', argsMatch: { city: 'Oslo' } });
        return first === undefined
          ? { reached: false }
          : { reached: true, turn: ctx.calls[first]?.turn ?? null };
      },
    },
  ],
  referenceSolution: [],
};

const forecast = (city: string): ScriptedTurn => ({
  calls: [{ name: 'weather__forecast', arguments: { city } }],
});

/** A scripted model that keeps the tools and the system prompt of its first request. */
function watching(turns: ScriptedTurn[]): ChatModel & { tools: string[]; system: string } {
  const inner = createScriptedModel('watch', turns);
  const seen = { tools: [] as string[], system: '' };
  return Object.assign(seen, {
    name: 'watch',
    complete(...args: Parameters<ChatModel['complete']>) {
      const [messages, tools] = args;
      if (seen.system === '') {
        seen.tools = (tools as readonly ToolSpec[]).map((t) => t.name);
        const first = messages[0];
        seen.system = first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
      }
      return inner.complete(...args);
    },
  });
}

describe('a stubbed MCP server in a trial', () => {
  it('offers its tools after the built-in three, answers with the recorded reply, and the call is evidence', async () => {
    const model = watching([forecast('Oslo'), { text: 'Rain, 9°C.', calls: [] }]);
    const { record } = await trial({ task: TASK, model });
    expect(model.tools).toEqual(['execute_command', 'read_file', 'write_file', 'weather__forecast']);
    expect(model.system).toContain('execute_command, read_file, write_file, weather__forecast');
    expect(record.turn_logs[0]?.tool_calls[0]).toMatchObject({
      name: 'weather__forecast',
      arguments: { city: 'Oslo' },
      mcp: { server: 'weather', tool: 'forecast' },
      exit_code: 0,
      stdout: 'Oslo: rain, 9°C',
      stderr: '',
    });
    expect(record.flags.asked?.reached).toBe(true);
  });

  it('a recorded error reply and arguments nothing was recorded for are errors the model sees, and no evidence', async () => {
    const model = watching([forecast('Atlantis'), forecast('Paris'), { text: 'Unknown.', calls: [] }]);
    const { record } = await trial({ task: TASK, model });
    const [atlantis, paris] = record.turn_logs.flatMap((t) => t.tool_calls);
    expect(atlantis).toMatchObject({ exit_code: 1, stderr: 'no such city', stdout: '' });
    expect(paris?.exit_code).toBe(1);
    expect(paris?.stderr).toMatch(/no recorded reply for these arguments; recorded: \{"city":"Oslo"\}/);
    expect(record.flags.asked?.reached).toBe(false);
  });

  it('tools = mcp_only offers the servers’ tools alone, and a built-in call is an unknown tool', async () => {
    const model = watching([
      { calls: [{ name: 'execute_command', arguments: { command: 'curl wttr.in/Oslo' } }] },
      forecast('Oslo'),
      { text: 'Rain.', calls: [] },
    ]);
    const { record } = await trial({ task: { ...TASK, tools: 'mcp_only' }, model });
    expect(model.tools).toEqual(['weather__forecast']);
    expect(model.system).toContain('Call tools only by their exact names: weather__forecast.');
    expect(record.turn_logs[0]?.tool_calls[0]?.invalid).toBe('unknown_tool');
    expect(record.flags.asked?.reached).toBe(true);
  });

  it('under the noisy condition a faulted MCP call ran nothing and is no evidence', async () => {
    const model = watching([forecast('Oslo'), { text: 'Rain.', calls: [] }]);
    const { record } = await trial({ task: TASK, model, condition: noisy(1) });
    const call = record.turn_logs[0]?.tool_calls[0];
    expect(call?.fault).toBeDefined();
    expect(call?.stdout).not.toContain('rain');
    expect(record.flags.asked?.reached).toBe(false);
  });
});
