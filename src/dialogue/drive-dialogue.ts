/**
 * Drives one conversation: agent ↔ user ↔ tools. The agent's reply either calls tools (they run
 * against the environment and the results go back to the agent) or, with no calls, is a message to
 * the user, whose answer comes back as the next user message. Ends when the user ends it, when a
 * request gets no reply (the agent's or the user model's server failed), or at max turns.
 * The model call, the reply parsing (native and text-format tool calls) and the turn logs are the
 * agent loop's own (src/models, src/agent/turn-log.ts); only the tools and the user are new here.
 */
import { cappedCallLog, errorTurn, turnLogFrom } from '../agent/turn-log.js';
import {
  type ChatMessage,
  type ChatModel,
  type ModelReply,
  ModelRequestError,
  type RequestFailure,
} from '../models/types.js';
import type { EventSink } from '../results/events.js';
import type { TokenUsage, TurnLog } from '../results/trial.js';
import { capHeadTail } from '../util/text-cap.js';
import { dispatchEnvCall } from './dispatch.js';
import type { DialogueEnvironment } from './environment.js';
import type { SimulatedUser } from './user/simulated-user.js';

/** As in the agent loop: how much of an unparsable reply goes back with the request to resend. */
const REPLAYED_MALFORMED_CHARS = 8000;

export interface DialogueOptions {
  index: number;
  systemPrompt: string;
  agent: ChatModel;
  user: SimulatedUser;
  env: DialogueEnvironment;
  /** The scenario's satisfaction condition on the environment, for the user. */
  satisfied: () => boolean;
  maxTurns: number;
  emit: EventSink;
  signal?: AbortSignal;
}

/** A call that ran, with the turn it ran on (in order: the i-th is the environment's step i). */
interface TurnCall {
  turn: number;
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  changes: string[];
}

export interface DrivenDialogue {
  turnLogs: TurnLog[];
  calls: TurnCall[];
  end: 'user_ended' | 'max_turns' | 'request_failed';
  /** Set when a request got no reply (the agent's or the user model's): the trial cannot be judged. */
  requestFailure: { message: string; failure: RequestFailure } | null;
  userUsage: TokenUsage;
  /** The agent's model and tool time; the user model's time excluded. */
  agentMs: number;
}

export async function driveDialogue(o: DialogueOptions): Promise<DrivenDialogue> {
  const { agent, env, user, emit, index } = o;
  const messages: ChatMessage[] = [
    { role: 'system', content: o.systemPrompt },
    { role: 'user', content: user.opening },
  ];
  const turnLogs: TurnLog[] = [];
  const calls: TurnCall[] = [];
  const userUsage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  const view = {
    callCount: (name: string) => calls.filter((c) => c.ok && c.name === name).length,
    satisfied: o.satisfied,
  };
  let end: DrivenDialogue['end'] = 'max_turns';
  let requestFailure: DrivenDialogue['requestFailure'] = null;
  let userMs = 0;
  const start = Date.now();

  for (let turn = 1; turn <= o.maxTurns; turn++) {
    o.signal?.throwIfAborted();
    const turnStart = Date.now();
    let reply: ModelReply;
    try {
      reply = await agent.complete(messages, env.tools, o.signal);
    } catch (err) {
      if (o.signal?.aborted || !(err instanceof ModelRequestError)) throw err;
      requestFailure = { message: err.message, failure: err.failure };
      emit({ type: 'model_error', trial: index, turn, error: err.message });
      turnLogs.push(errorTurn(turn, err, Date.now() - turnStart));
      end = 'request_failed';
      break;
    }
    emit({
      type: 'model_reply',
      trial: index,
      turn,
      text: reply.text.slice(0, 200),
      tool_calls: reply.toolCalls.length,
      latency_ms: reply.latencyMs,
      retries: reply.retries.length,
    });
    const log = turnLogFrom(turn, reply);
    turnLogs.push(log);
    let turnUserMs = 0;

    if (reply.toolCalls.length === 0 && reply.malformed !== null) {
      // A reply we could not understand is no message to the user: say so and let the agent resend.
      messages.push({
        role: 'assistant',
        content: capHeadTail(reply.text, REPLAYED_MALFORMED_CHARS).text,
        toolCalls: [],
      });
      messages.push({
        role: 'user',
        content: `Your last reply could not be parsed (${reply.malformed}). Resend the tool call with valid JSON arguments.`,
      });
    } else if (reply.toolCalls.length === 0) {
      messages.push({ role: 'assistant', content: reply.text, toolCalls: [] });
      const userStart = Date.now();
      try {
        const answer = await user.reply(reply.text, view, o.signal);
        log.user_reply = { text: answer.text, ended: answer.ended };
        userUsage.prompt_tokens += answer.usage?.prompt_tokens ?? 0;
        userUsage.completion_tokens += answer.usage?.completion_tokens ?? 0;
        if (answer.ended) end = 'user_ended';
        else messages.push({ role: 'user', content: answer.text });
      } catch (err) {
        if (o.signal?.aborted || !(err instanceof ModelRequestError)) throw err;
        requestFailure = { message: `user model: ${err.message}`, failure: err.failure };
        emit({ type: 'model_error', trial: index, turn, error: requestFailure.message });
        end = 'request_failed';
      }
      turnUserMs = Date.now() - userStart;
      userMs += turnUserMs;
    } else {
      messages.push({
        role: 'assistant',
        content: reply.text === '' ? null : reply.text,
        toolCalls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, rawArguments: c.rawArguments })),
      });
      for (const call of reply.toolCalls) {
        const outcome = dispatchEnvCall(call, env);
        log.tool_calls.push(cappedCallLog(outcome.log));
        messages.push({ role: 'tool', toolCallId: call.id, content: outcome.reply });
        if (outcome.ran !== null && call.arguments !== null)
          calls.push({ turn, name: call.name, arguments: call.arguments, ...outcome.ran });
        emit({
          type: 'tool_call',
          trial: index,
          turn,
          name: call.name,
          arg: call.rawArguments.slice(0, 160),
          exit_code: outcome.log.exit_code,
          invalid: outcome.log.invalid,
          source: call.source,
        });
      }
    }
    // The agent's time only: the user's answer is the simulation's, not the model's.
    log.elapsed_ms = Date.now() - turnStart - turnUserMs;
    if (end !== 'max_turns') break;
  }
  return { turnLogs, calls, end, requestFailure, userUsage, agentMs: Date.now() - start - userMs };
}
