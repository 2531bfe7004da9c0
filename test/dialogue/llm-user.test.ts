/**
 * The LLM user, played by a scripted OpenAI-compatible server through the real client: it gets the
 * persona and the facts it may use, a code only once the agent sent it, ends with the stop token,
 * and is recorded with its settings. Its server failing is an error trial, never the agent's failure.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STOP_TOKEN } from '../../src/dialogue/user/llm-user.js';
import type { UserChoice } from '../../src/dialogue/user/user-choice.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import { resolveUserModel } from '../../src/run/resolve-user.js';
import { InfraError } from '../../src/util/errors.js';
import {
  type ChatRequestBody,
  type Script,
  type ScriptedServer,
  startScriptedServer,
} from '../helpers/scripted-server.js';
import { runAgent, scenario, transcript } from './scenario-runs.js';

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function llmUserOn(script: Script): Promise<UserChoice> {
  server = await startScriptedServer({ scripts: { 'user-sim': script } });
  const baseUrl = server.baseUrl;
  return {
    kind: 'llm',
    makeModel: () =>
      createOpenAICompatibleModel({
        baseUrl,
        model: 'user-sim',
        sampling: { temperature: 0.7 },
        requestTimeoutMs: 10_000,
        maxRetries: 0,
      }),
    record: { kind: 'llm', model: 'user-sim', base_url: baseUrl, temperature: 0.7 },
  };
}

const lastAgentMessage = (body: ChatRequestBody): string => {
  const m = body.messages.at(-1);
  return m?.role === 'user' && typeof m.content === 'string' ? m.content : '';
};

describe('LLM user', () => {
  it('plays the scenario from its facts and ends with the stop token', async () => {
    const s = scenario('helpdesk_id_password_reset');
    const user = await llmUserOn((body) => {
      const said = lastAgentMessage(body);
      if (said.includes('318604')) return { text: 'The code is 318604.' };
      if (said.includes('closed')) return { text: `Got it, thanks! ${STOP_TOKEN}` };
      return { text: 'Okay.' };
    });
    const t = await runAgent(s, createScriptedModel('agent', s.file.reference), user);
    expect(t.passed, transcript(t)).toBe(true);
    expect(t.dialogue?.user).toEqual({
      kind: 'llm',
      model: 'user-sim',
      base_url: server?.baseUrl,
      temperature: 0.7,
    });
    expect(t.dialogue?.end).toBe('user_ended');
    const replies = t.turn_logs.flatMap((l) => (l.user_reply === undefined ? [] : [l.user_reply]));
    expect(replies).toEqual([
      { text: 'The code is 318604.', ended: false },
      { text: 'Got it, thanks!', ended: true },
    ]);
    expect(t.dialogue?.user_usage.completion_tokens).toBeGreaterThan(0);
    // The user model's tokens are not the agent's.
    expect(t.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0 });
  });

  it('is told the persona and its facts, a code only after it was sent, and never the tools', async () => {
    const s = scenario('helpdesk_id_password_reset');
    const user = await llmUserOn(() => ({ text: `Bye ${STOP_TOKEN}` }));
    await runAgent(s, createScriptedModel('agent', s.file.reference), user);
    const first = server?.requests[0]?.body;
    const system = JSON.stringify(first?.messages[0]);
    expect(system).toContain('Jordan Lee, Software Engineer in Engineering');
    expect(system).toContain("It's E1200.");
    expect(system).toContain(STOP_TOKEN);
    expect(system).not.toContain('318604');
    // The employee's own opening is its first message; the agent speaks as "user".
    expect(first?.messages[1]).toMatchObject({ role: 'assistant', content: s.file.user.opening });
    expect(lastAgentMessage(first as ChatRequestBody)).toContain('The code on my phone is 318604.');
    expect(first?.tools).toBeUndefined();
  });

  it('is not told a code before the agent sends it', async () => {
    const s = scenario('helpdesk_id_password_reset');
    const user = await llmUserOn(() => ({ text: 'Hm?' }));
    const t = await runAgent(
      s,
      createScriptedModel('agent', [
        { text: 'Please read me the code.', calls: [] },
        { text: 'Still there?', calls: [] },
      ]),
      user,
    );
    const seen = server?.requests.map((r) => JSON.stringify(r.body.messages)).join('\n') ?? '';
    expect(seen).not.toContain('318604');
    expect(t.turn_logs[0]?.user_reply).toEqual({ text: 'Hm?', ended: false });
  });

  it('records its server failing as an error trial', async () => {
    const s = scenario('helpdesk_id_password_reset');
    const user = await llmUserOn([{ status: 503, error: 'overloaded' }]);
    const t = await runAgent(
      s,
      createScriptedModel('agent', [{ text: 'Hello, how can I help?', calls: [] }]),
      user,
    );
    expect(t.status).toBe('error');
    expect(t.error?.kind).toBe('server_error');
    expect(t.failure_reason).toContain('user model');
  });
});

describe('--user-model', () => {
  const request = (baseUrl: string, model: string) => ({
    model,
    baseUrl,
    apiKeyEnv: 'NO_SUCH_KEY',
    sampling: { temperature: 0.3, seed: 7 },
    requestTimeoutMs: 5000,
    retries: 0,
  });

  it('is checked on its server before any trial, and recorded with its settings', async () => {
    server = await startScriptedServer({ scripts: { 'user-sim': [{ text: `Bye ${STOP_TOKEN}` }] } });
    await expect(resolveUserModel(request(server.baseUrl, 'not-served'))).rejects.toThrow(InfraError);
    const choice = await resolveUserModel(request(server.baseUrl, 'user-sim'));
    expect(choice).toMatchObject({
      kind: 'llm',
      record: { kind: 'llm', model: 'user-sim', base_url: server.baseUrl, temperature: 0.3, seed: 7 },
    });
    const s = scenario('helpdesk_oos_payroll');
    const t = await runAgent(s, createScriptedModel('agent', [{ text: 'Hello!', calls: [] }]), choice);
    expect(t.dialogue?.user).toEqual(choice.kind === 'llm' ? choice.record : null);
    expect(server.requests.at(-1)?.body).toMatchObject({ model: 'user-sim', temperature: 0.3, seed: 7 });
  });
});
