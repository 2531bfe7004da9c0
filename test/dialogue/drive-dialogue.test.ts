/**
 * The dialogue driver over the real OpenAI-compatible client and a scripted server: task tools
 * called in text formats (no native tool calls), the tools offered in the request, refused calls,
 * a reply that cannot be parsed, user turns logged apart from tool results, and the ends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import type { ScriptedTurn } from '../../src/models/scripted.js';
import { type ScriptedReply, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';
import { runAgent, scenario, transcript, unreached } from './scenario-runs.js';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function agentOn(replies: ScriptedReply[]) {
  server = await startScriptedServer({ scripts: { agent: replies } });
  return createOpenAICompatibleModel({
    baseUrl: server.baseUrl,
    model: 'agent',
    sampling: { temperature: 0 },
    requestTimeoutMs: 10_000,
    maxRetries: 0,
  });
}

/** Each turn's calls printed as text, in the formats small local models use, in turn. */
function asText(turns: readonly ScriptedTurn[]): ScriptedReply[] {
  const formats = [
    (c: object) => `<tool_call>\n${JSON.stringify(c)}\n</tool_call>`,
    (c: object) => `<|tool_call|>[${JSON.stringify(c)}]`,
    (c: object) => `\`\`\`json\n${JSON.stringify(c)}\n\`\`\``,
    (c: object) => `[TOOL_CALLS][${JSON.stringify(c)}]`,
  ];
  let n = 0;
  return turns.map((t) =>
    t.calls.length === 0
      ? { text: t.text ?? '' }
      : {
          text: t.calls
            .map((c) => (formats[n++ % formats.length] ?? String)({ name: c.name, arguments: c.arguments }))
            .join('\n'),
        },
  );
}

describe('dialogue driver', () => {
  it('runs a whole scenario on text-format calls to the task tools', async () => {
    const s = scenario('helpdesk_kb_vpn_password_change');
    const t = await runAgent(s, await agentOn(asText(s.file.reference)));
    expect(t.passed, `${unreached(t).join(', ')}\n${transcript(t)}`).toBe(true);
    const calls = t.turn_logs.flatMap((l) => l.tool_calls);
    expect(calls.map((c) => c.name)).toEqual([
      'lookup_employee',
      'create_ticket',
      'search_kb',
      'get_kb_article',
      'close_ticket',
    ]);
    expect(calls.every((c) => c.source === 'text' && c.invalid === null && c.exit_code === 0)).toBe(true);
    expect(t.text_tool_calls).toBe(5);
    // The task's tools are what the model is offered, not the shell and file tools.
    const offered = server?.requests[0]?.body.tools?.map((x) =>
      x.type === 'function' ? x.function.name : '',
    );
    expect(offered).toContain('verify_identity');
    expect(offered).not.toContain('execute_command');
  });

  it('logs the user turns apart from the tool results', async () => {
    const s = scenario('helpdesk_kb_vpn_password_change');
    const t = await runAgent(s, await agentOn(asText(s.file.reference)));
    const withUser = t.turn_logs.filter((l) => l.user_reply !== undefined);
    expect(withUser.every((l) => l.tool_calls.length === 0)).toBe(true);
    expect(withUser.map((l) => l.user_reply?.text)).toEqual([
      'My employee ID is E1042.',
      "Now that you mention it, I changed my password yesterday when it expired. Email and Teams work fine, it's just the VPN and the shared drives.",
      'Okay, I removed the saved credentials and signed in again. It connects now!',
      'Perfect, thank you so much!',
    ]);
    expect(withUser.at(-1)?.user_reply?.ended).toBe(true);
    expect(t.dialogue).toMatchObject({
      opening: s.file.user.opening,
      user: { kind: 'scripted' },
      end: 'user_ended',
    });
    expect(t.dialogue?.state_changes.map((c) => c.tool)).toEqual(['create_ticket', 'close_ticket']);
    expect(t.final_answer).toBe("Great! I've closed ticket T-1001 as resolved.");
  });

  it('refuses unknown tools and bad arguments, and asks again for a reply it cannot parse', async () => {
    const s = scenario('helpdesk_kb_vpn_password_change');
    const t = await runAgent(
      s,
      await agentOn([
        { text: '<tool_call>{"name": "execute_command", "arguments": {"command": "ls"}}</tool_call>' },
        { text: '<tool_call>{"name": "create_ticket", "arguments": {"employee_id": "E1042"}}</tool_call>' },
        { text: '<tool_call>{"name": "lookup_employee", "arguments": {"query": </tool_call>' },
        { text: 'Which printer?' },
      ]),
    );
    const [unknown, missing] = t.turn_logs.flatMap((l) => l.tool_calls);
    expect(unknown).toMatchObject({ invalid: 'unknown_tool', exit_code: null });
    expect(missing).toMatchObject({ invalid: 'missing_argument', exit_code: null });
    expect(missing?.stderr).toContain('category');
    expect(t.invalid_tool_call_count).toBe(1);
    expect(t.missing_argument_count).toBe(1);
    expect(t.turn_logs[2]?.malformed).not.toBeNull();
    // The broken call was not shown to the user: the first user reply answers turn 4.
    expect(t.turn_logs.findIndex((l) => l.user_reply !== undefined)).toBe(3);
    const resend = server?.requests[3]?.body.messages.at(-1);
    expect(JSON.stringify(resend)).toContain('could not be parsed');
    expect(t.dialogue?.state_changes).toEqual([]);
  });

  it('ends at max turns when the user never ends the conversation', async () => {
    const s = { ...scenario('helpdesk_kb_vpn_password_change') };
    s.file = { ...s.file, max_turns: 4 };
    const t = await runAgent(
      s,
      await agentOn(
        Array.from({ length: 4 }, () => ({ calls: [{ name: 'search_kb', arguments: { query: 'vpn' } }] })),
      ),
    );
    expect(t.turns).toBe(4);
    expect(t.dialogue?.end).toBe('max_turns');
    expect(t.passed).toBe(false);
    expect(t.end_reason).toBe('max_turns');
    // One wording for every loop: the turns that ran out, as in the agent's trials.
    expect(t.failure_reason).toBe('ran out of turns (4)');
  });

  it('records an agent server that fails as an error trial, not a failure of the model', async () => {
    const s = scenario('helpdesk_kb_vpn_password_change');
    const t = await runAgent(
      s,
      await agentOn([
        { calls: [{ name: 'lookup_employee', arguments: { query: 'E1042' } }] },
        { status: 500, error: 'boom' },
      ]),
    );
    expect(t.status).toBe('error');
    expect(t.error?.kind).toBe('server_error');
    expect(t.turn_logs).toHaveLength(2);
    expect(t.flags).toEqual({});
  });
});
