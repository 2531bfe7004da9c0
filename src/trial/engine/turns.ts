/**
 * The turn engine every conversation runs on. Each turn the model replies; its tool calls go to the
 * responder and their results back to the model; a reply without calls goes to the responder too
 * (a final answer ends the turns, a user's answer is the next message). A reply that could not be
 * parsed is sent back with a request to resend. Ends at the responder's end, a request that got no
 * reply (the server's failure) or none in time (the model's), max turns, or the first turn that would
 * start past the agent time limit.
 */
import {
  type ChatMessage,
  type ChatModel,
  type ModelReply,
  ModelRequestError,
  ModelTimeoutError,
  type RequestFailure,
} from '../../models/types.js';
import type { EventSink } from '../../results/events.js';
import type { AgentFault, EndReason, TurnLog } from '../../results/trial.js';
import { capHeadTail } from '../../util/text-cap.js';
import { cappedCallLog, errorTurn, turnLogFrom } from '../turn-log.js';
import type { Responder } from './responder.js';

/** How much of a reply that could not be parsed goes back to the model with the request to resend. */
const REPLAYED_MALFORMED_CHARS = 8000;

export interface TurnOptions {
  index: number;
  systemPrompt: string;
  /** The first user message: the task's prompt, or the simulated user's opening. */
  opening: string;
  model: ChatModel;
  responder: Responder;
  maxTurns: number;
  emit: EventSink;
  signal?: AbortSignal;
  /**
   * Agent time after which no new turn starts: a Harbor task's agent timeout. Checked between turns;
   * a running command keeps its own timeout.
   */
  timeLimitMs?: number;
}

export interface DrivenTurns {
  turnLogs: TurnLog[];
  end: Exclude<EndReason, 'harness_error'>;
  /** The model's final answer, when it gave one. */
  finalAnswer: string | null;
  /** Set when a request got no reply (the model's, or the responder's own): the trial cannot be judged. */
  requestFailure: { message: string; failure: RequestFailure } | null;
  /**
   * Set when the model's request got no reply in time while its server still answered (end
   * `request_timeout`): the model's failure, and the trial a failed one.
   */
  modelTimeout: AgentFault | null;
  /**
   * What a tool call threw (its sandbox failed under it), which ended the turns there: whose failure
   * it is the trial decides (src/agent/attribution.ts). null when every call returned.
   */
  toolError: { error: unknown } | null;
  /** The model's and the tools' time: what the responder set aside (snapshots, the user's answers) excluded. */
  agentMs: number;
  /** The time the responder set aside. */
  asideMs: number;
}

/**
 * Runs the turns of one conversation; throws only when aborted or on a bug in the turns themselves
 * (never for a server's failure; a tool that throws ends the turns with `toolError`).
 */
export async function runTurns(o: TurnOptions): Promise<DrivenTurns> {
  const messages: ChatMessage[] = [
    { role: 'system', content: o.systemPrompt },
    { role: 'user', content: o.opening },
  ];
  const driven: DrivenTurns = {
    turnLogs: [],
    end: 'max_turns',
    finalAnswer: null,
    requestFailure: null,
    modelTimeout: null,
    toolError: null,
    agentMs: 0,
    asideMs: 0,
  };
  const start = Date.now();
  const overTime = (): boolean =>
    o.timeLimitMs !== undefined && Date.now() - start - driven.asideMs >= o.timeLimitMs;

  for (let turn = 1; turn <= o.maxTurns; turn++) {
    o.signal?.throwIfAborted();
    if (turn > 1 && overTime()) {
      driven.end = 'agent_timeout';
      break;
    }
    const turnStart = Date.now();
    const reply = await askModel(o, messages, turn, driven);
    if (reply === null) break;
    const log = turnLogFrom(turn, reply);
    driven.turnLogs.push(log);
    let asideMs = 0;
    try {
      asideMs = await answerReply(o, reply, turn, log, messages, driven);
    } catch (error) {
      if (o.signal?.aborted) throw error;
      driven.toolError = { error };
    }
    driven.asideMs += asideMs;
    log.elapsed_ms = Math.max(0, Date.now() - turnStart - asideMs);
    if (driven.end !== 'max_turns' || driven.toolError !== null) break;
  }
  driven.agentMs = Date.now() - start - driven.asideMs;
  return driven;
}

/** The model's reply to the conversation so far, or null when its request got no reply (recorded). */
async function askModel(
  o: TurnOptions,
  messages: readonly ChatMessage[],
  turn: number,
  driven: DrivenTurns,
): Promise<ModelReply | null> {
  const turnStart = Date.now();
  let reply: ModelReply;
  try {
    reply = await o.model.complete(messages, o.responder.tools, o.signal);
  } catch (err) {
    if (o.signal?.aborted) throw err;
    if (err instanceof ModelTimeoutError) {
      driven.modelTimeout = { kind: 'request_timeout', detail: err.message };
      driven.end = 'request_timeout';
    } else if (err instanceof ModelRequestError) {
      driven.requestFailure = { message: err.message, failure: err.failure };
      driven.end = 'request_failed';
    } else throw err;
    o.emit({ type: 'model_error', trial: o.index, turn, error: err.message });
    driven.turnLogs.push(errorTurn(turn, err, Date.now() - turnStart));
    return null;
  }
  o.emit({
    type: 'model_reply',
    trial: o.index,
    turn,
    text: reply.text.slice(0, 200),
    tool_calls: reply.toolCalls.length,
    latency_ms: reply.latencyMs,
    retries: reply.retries.length,
  });
  return reply;
}

/**
 * Whatever the reply asked for, done: its calls run, or it is resent, answered or taken as the end.
 * Returns the time the responder set aside on the turn.
 */
async function answerReply(
  o: TurnOptions,
  reply: ModelReply,
  turn: number,
  log: TurnLog,
  messages: ChatMessage[],
  driven: DrivenTurns,
): Promise<number> {
  if (reply.toolCalls.length > 0) return runCalls(o, reply, turn, log, messages);
  if (reply.malformed !== null) {
    // A reply we could not understand is no answer: say so and let the model resend.
    messages.push({
      role: 'assistant',
      content: capHeadTail(reply.text, REPLAYED_MALFORMED_CHARS).text,
      toolCalls: [],
    });
    messages.push({
      role: 'user',
      content: `Your last reply could not be parsed (${reply.malformed}). Resend the tool call with valid JSON arguments.`,
    });
    return 0;
  }
  const answerStart = Date.now();
  const answer = await o.responder.answer(reply.text, log, o.signal);
  if (answer.kind === 'end') {
    driven.end = answer.end;
    if (answer.end === 'final_answer') driven.finalAnswer = reply.text;
  } else if (answer.kind === 'continue') {
    messages.push({ role: 'assistant', content: reply.text, toolCalls: [] });
    messages.push({ role: 'user', content: answer.message });
  } else {
    driven.requestFailure = { message: answer.message, failure: answer.failure };
    driven.end = 'request_failed';
    o.emit({ type: 'model_error', trial: o.index, turn, error: answer.message });
  }
  return Date.now() - answerStart;
}

/** Runs the reply's tool calls in order, each result back to the model; returns the turn's harness ms. */
async function runCalls(
  o: TurnOptions,
  reply: ModelReply,
  turn: number,
  log: TurnLog,
  messages: ChatMessage[],
): Promise<number> {
  messages.push({
    role: 'assistant',
    content: reply.text === '' ? null : reply.text,
    toolCalls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, rawArguments: c.rawArguments })),
  });
  for (const call of reply.toolCalls) {
    const answer = await o.responder.call(call, turn);
    log.tool_calls.push(cappedCallLog(answer.log));
    messages.push({ role: 'tool', toolCallId: call.id, content: answer.reply });
    o.emit({
      type: 'tool_call',
      trial: o.index,
      turn,
      name: call.name,
      arg: answer.arg,
      exit_code: answer.log.exit_code,
      invalid: answer.log.invalid,
      source: call.source,
    });
  }
  return (await o.responder.endTurn?.(turn)) ?? 0;
}
