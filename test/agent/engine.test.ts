/** The turn engine on its own: a scripted model, and a scripted responder that records what it was asked. */
import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  type ChatModel,
  type ModelReply,
  ModelRequestError,
  ModelTimeoutError,
  type ParsedToolCall,
} from '../../src/models/types.js';
import type { TrialEvent } from '../../src/results/events.js';
import type { CallAnswer, ReplyAnswer, Responder } from '../../src/trial/engine/responder.js';
import { runTurns, type TurnOptions } from '../../src/trial/engine/turns.js';

type Step = Partial<ModelReply> | ModelRequestError | ModelTimeoutError;

/** A model that replies each step in turn, keeping every request's messages. */
function model(steps: readonly Step[]): ChatModel & { sent: ChatMessage[][] } {
  const sent: ChatMessage[][] = [];
  return {
    name: 'steps',
    sent,
    async complete(messages, _tools, signal) {
      signal?.throwIfAborted();
      sent.push([...messages]);
      const step = steps[sent.length - 1] ?? { text: 'out of script' };
      if (step instanceof ModelRequestError || step instanceof ModelTimeoutError) throw step;
      return {
        text: '',
        toolCalls: [],
        usage: { prompt_tokens: 10, completion_tokens: 1 },
        finishReason: 'stop',
        latencyMs: 1,
        retries: [],
        malformed: null,
        ...step,
      };
    },
  };
}

function call(id: string, name: string, source: 'native' | 'text' = 'native'): ParsedToolCall {
  return { id, name, rawArguments: '{"x":1}', arguments: { x: 1 }, source };
}

/** Answers every call with `ran <name>`, and replies without calls from `answers` in turn (then ends). */
function responder(answers: ReplyAnswer[] = [], endTurnMs = 0) {
  const calls: { turn: number; name: string }[] = [];
  const answered: string[] = [];
  const r: Responder = {
    tools: [{ name: 'probe', description: 'a probe', parameters: {} }],
    async call(c, turn): Promise<CallAnswer> {
      calls.push({ turn, name: c.name });
      return {
        log: {
          name: c.name,
          arguments: c.arguments,
          raw_arguments: c.rawArguments,
          source: c.source,
          cwd: '',
          invalid: null,
          exit_code: 0,
          stdout: `ran ${c.name}`,
          stderr: '',
          truncated: false,
          timed_out: false,
          elapsed_ms: 0,
        },
        reply: `ran ${c.name}`,
        arg: `arg of ${c.name}`,
      };
    },
    async answer(text, log) {
      answered.push(text);
      log.user_reply = { text: `heard ${text}`, ended: false };
      return answers.shift() ?? { kind: 'end', end: 'final_answer' };
    },
    endTurn: async () => endTurnMs,
  };
  return { r, calls, answered };
}

function options(m: ChatModel, r: Responder, extra: Partial<TurnOptions> = {}) {
  const events: TrialEvent[] = [];
  const o: TurnOptions = {
    index: 3,
    systemPrompt: 'system',
    opening: 'hello',
    model: m,
    responder: r,
    maxTurns: 5,
    emit: (e) => events.push(e),
    ...extra,
  };
  return { o, events };
}

describe('turn engine', () => {
  it('sends tool calls to the responder and their replies back, and ends at the final answer', async () => {
    const m = model([{ toolCalls: [call('a', 'probe'), call('b', 'other', 'text')] }, { text: 'all done' }]);
    const { r, calls, answered } = responder();
    const { o, events } = options(m, r);
    const driven = await runTurns(o);
    expect(driven.end).toBe('final_answer');
    expect(driven.finalAnswer).toBe('all done');
    expect(driven.requestFailure).toBeNull();
    expect(calls).toEqual([
      { turn: 1, name: 'probe' },
      { turn: 1, name: 'other' },
    ]);
    expect(answered).toEqual(['all done']);
    expect(m.sent[0]?.map((x) => x.role)).toEqual(['system', 'user']);
    expect(m.sent[1]?.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'a', name: 'probe', rawArguments: '{"x":1}' },
          { id: 'b', name: 'other', rawArguments: '{"x":1}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', content: 'ran probe' },
      { role: 'tool', toolCallId: 'b', content: 'ran other' },
    ]);
    expect(driven.turnLogs.map((t) => t.tool_calls.map((c) => c.source))).toEqual([['native', 'text'], []]);
    expect(events.map((e) => e.type)).toEqual(['model_reply', 'tool_call', 'tool_call', 'model_reply']);
    expect(events[1]).toMatchObject({
      trial: 3,
      turn: 1,
      name: 'probe',
      arg: 'arg of probe',
      source: 'native',
    });
  });

  it('puts a user’s answer in as the next message, and ends when the user ends it', async () => {
    const m = model([{ text: 'how can I help?' }, { text: 'bye' }]);
    const { r } = responder([
      { kind: 'continue', message: 'my VPN is down' },
      { kind: 'end', end: 'user_ended' },
    ]);
    const driven = await runTurns(options(m, r).o);
    expect(driven.end).toBe('user_ended');
    expect(driven.finalAnswer).toBeNull();
    expect(m.sent[1]?.slice(2)).toEqual([
      { role: 'assistant', content: 'how can I help?', toolCalls: [] },
      { role: 'user', content: 'my VPN is down' },
    ]);
    expect(driven.turnLogs.map((t) => t.user_reply?.text)).toEqual(['heard how can I help?', 'heard bye']);
  });

  it('sends a reply it could not parse back to the model, never to the responder', async () => {
    const m = model([{ text: '<tool_call>{broken', malformed: 'bad JSON' }, { text: 'fixed' }]);
    const { r, answered } = responder();
    const driven = await runTurns(options(m, r).o);
    expect(answered).toEqual(['fixed']);
    expect(m.sent[1]?.at(-1)).toEqual({
      role: 'user',
      content:
        'Your last reply could not be parsed (bad JSON). Resend the tool call with valid JSON arguments.',
    });
    expect(driven.turnLogs.map((t) => t.malformed)).toEqual(['bad JSON', null]);
  });

  it('ends at max turns, and takes the responder’s harness time out of the agent’s', async () => {
    const m = model(Array.from({ length: 3 }, (_, i) => ({ toolCalls: [call(`c${i}`, 'probe')] })));
    const { r } = responder([], 60_000);
    const driven = await runTurns(options(m, r, { maxTurns: 3 }).o);
    expect(driven.end).toBe('max_turns');
    expect(driven.turnLogs).toHaveLength(3);
    expect(driven.asideMs).toBe(180_000);
    expect(driven.turnLogs.every((t) => t.elapsed_ms === 0)).toBe(true);
  });

  it('starts no turn past the agent time limit', async () => {
    const m = model([{ toolCalls: [call('a', 'probe')] }, { text: 'never asked' }]);
    const { r } = responder();
    const driven = await runTurns(options(m, r, { timeLimitMs: 0 }).o);
    expect(driven.end).toBe('agent_timeout');
    expect(m.sent).toHaveLength(1);
  });

  it('records a request that got no reply, with its retries, as the end', async () => {
    const err = new ModelRequestError('connection refused', { kind: 'unreachable' }, [
      { attempt: 1, reason: 'ECONNREFUSED', waitMs: 5 },
    ]);
    const m = model([{ toolCalls: [call('a', 'probe')] }, err]);
    const { r } = responder();
    const { o, events } = options(m, r);
    const driven = await runTurns(o);
    expect(driven.end).toBe('request_failed');
    expect(driven.requestFailure).toEqual({
      message: 'connection refused',
      failure: { kind: 'unreachable' },
    });
    expect(driven.turnLogs[1]).toMatchObject({
      turn: 2,
      request_error: 'connection refused',
      retries: [{ attempt: 1, reason: 'ECONNREFUSED', wait_ms: 5 }],
    });
    expect(events.at(-1)).toEqual({ type: 'model_error', trial: 3, turn: 2, error: 'connection refused' });
  });

  it("ends at a request the model did not answer in time while its server did: the model's failure", async () => {
    const err = new ModelTimeoutError('timed out: waited 15.0 s (the server still answers)', 15_000, []);
    const m = model([{ toolCalls: [call('a', 'probe')] }, err]);
    const { r } = responder();
    const { o, events } = options(m, r);
    const driven = await runTurns(o);
    expect(driven.end).toBe('request_timeout');
    expect(driven.requestFailure).toBeNull();
    expect(driven.modelTimeout).toEqual({ kind: 'request_timeout', detail: err.message });
    expect(driven.turnLogs[1]).toMatchObject({ turn: 2, request_error: err.message });
    expect(events.at(-1)).toEqual({ type: 'model_error', trial: 3, turn: 2, error: err.message });
  });

  it('ends when the responder’s own request fails (a user model’s server)', async () => {
    const m = model([{ text: 'hello?' }]);
    const { r } = responder([
      { kind: 'request_failed', message: 'user model: down', failure: { kind: 'server_error' } },
    ]);
    const { o, events } = options(m, r);
    const driven = await runTurns(o);
    expect(driven.end).toBe('request_failed');
    expect(driven.requestFailure?.message).toBe('user model: down');
    expect(driven.turnLogs).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'model_error', error: 'user model: down' });
  });

  it('stops at an abort before the next turn', async () => {
    const controller = new AbortController();
    const m = model([{ toolCalls: [call('a', 'probe')] }, { text: 'never asked' }]);
    const { r } = responder();
    r.endTurn = async () => {
      controller.abort();
      return 0;
    };
    await expect(runTurns(options(m, r, { signal: controller.signal }).o)).rejects.toThrow();
    expect(m.sent).toHaveLength(1);
  });
});
