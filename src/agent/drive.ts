/**
 * Drives the turns of one trial: the model replies, its tool calls run in the sandbox, the workspace
 * is snapshotted after every turn. Ends at a final answer, a request that got no reply, max turns,
 * or, for a task with a time limit, the first turn that would start past it.
 */
import {
  type ChatMessage,
  type ChatModel,
  type ModelReply,
  ModelRequestError,
  type RequestFailure,
} from '../models/types.js';
import type { EventSink } from '../results/events.js';
import type { TurnLog } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import { recordChanges } from '../scoring/snapshot-diff.js';
import { capHeadTail } from '../util/text-cap.js';
import { type CallHook, dispatchToolCall } from './dispatch.js';
import { SYSTEM_PROMPT } from './system-prompt.js';
import { TOOL_SPECS } from './tools/registry.js';
import type { DispatchLimits } from './tools/tool.js';
import { cappedCallLog, errorTurn, summarizeArg, turnLogFrom } from './turn-log.js';

/** How much of a reply that could not be parsed goes back to the model with the request to resend. */
const REPLAYED_MALFORMED_CHARS = 8000;

export interface DriveOptions {
  index: number;
  prompt: string;
  model: ChatModel;
  sandbox: Sandbox;
  maxTurns: number;
  limits: DispatchLimits;
  emit: EventSink;
  signal?: AbortSignal;
  /** The trial's condition at each call (noisy faults, adversarial payloads); none when clean. */
  hook?: CallHook;
  /**
   * Agent time (model and tools, snapshots excluded) after which no new turn starts: a Harbor
   * task's agent timeout. Checked between turns; a running command keeps its own timeout.
   */
  timeLimitMs?: number;
}

export interface DrivenTurns {
  turnLogs: TurnLog[];
  /** Path → each turn that ran tools after which it differed from the look before, ascending (no listing per turn is kept). */
  changeTurns: Map<string, number[]>;
  finalAnswer: string | null;
  /** Why the loop ended without a final answer (max turns, the time limit), or null. */
  failureReason: string | null;
  /** Set when a request got no reply: the model server failed, so the trial cannot be judged. */
  requestFailure: { message: string; failure: RequestFailure } | null;
  /** Model and tool time, snapshots excluded. */
  agentMs: number;
  /** Time spent on per-turn snapshots: harness work, never counted against the model. */
  snapshotMs: number;
}

export async function driveTurns(o: DriveOptions): Promise<DrivenTurns> {
  const { model, sandbox, index, emit } = o;
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: o.prompt },
  ];
  const turnLogs: TurnLog[] = [];
  const changeTurns = new Map<string, number[]>();
  let finalAnswer: string | null = null;
  let failureReason: string | null = null;
  let requestFailure: DrivenTurns['requestFailure'] = null;
  let snapshotMs = 0;
  const agentStart = Date.now();

  for (let turn = 1; turn <= o.maxTurns; turn++) {
    o.signal?.throwIfAborted();
    if (turn > 1 && o.timeLimitMs !== undefined && Date.now() - agentStart - snapshotMs >= o.timeLimitMs) {
      failureReason = `agent_timeout: ${o.timeLimitMs / 1000} s of agent time used`;
      break;
    }
    const turnStart = Date.now();
    let reply: ModelReply;
    try {
      reply = await model.complete(messages, TOOL_SPECS, o.signal);
    } catch (err) {
      if (o.signal?.aborted) throw err;
      if (!(err instanceof ModelRequestError)) throw err;
      requestFailure = { message: err.message, failure: err.failure };
      emit({ type: 'model_error', trial: index, turn, error: err.message });
      turnLogs.push(errorTurn(turn, err, Date.now() - turnStart));
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

    if (reply.toolCalls.length === 0) {
      if (reply.malformed !== null) {
        // A reply we could not understand is not a final answer: say so and let the model resend.
        messages.push({
          role: 'assistant',
          content: capHeadTail(reply.text, REPLAYED_MALFORMED_CHARS).text,
          toolCalls: [],
        });
        messages.push({
          role: 'user',
          content: `Your last reply could not be parsed (${reply.malformed}). Resend the tool call with valid JSON arguments.`,
        });
        log.elapsed_ms = Date.now() - turnStart;
        continue;
      }
      finalAnswer = reply.text;
      log.elapsed_ms = Date.now() - turnStart;
      break;
    }

    messages.push({
      role: 'assistant',
      content: reply.text === '' ? null : reply.text,
      toolCalls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, rawArguments: c.rawArguments })),
    });
    for (const call of reply.toolCalls) {
      const outcome = await dispatchToolCall(call, sandbox, o.limits, o.hook);
      log.tool_calls.push(cappedCallLog(outcome.log));
      messages.push({ role: 'tool', toolCallId: call.id, content: outcome.reply });
      emit({
        type: 'tool_call',
        trial: index,
        turn,
        name: call.name,
        arg: summarizeArg(outcome.log),
        exit_code: outcome.log.exit_code,
        invalid: outcome.log.invalid,
        source: call.source,
      });
    }
    // Usually no exec: the turn's last command snapshotted the workspace as it ended.
    const changes = await sandbox.workspaceChanges();
    recordChanges(changeTurns, turn, changes.paths);
    snapshotMs += changes.snapshotMs;
    // Model and tool time: the snapshots' share (inside the commands or after them) is the harness's.
    log.elapsed_ms = Math.max(0, Date.now() - turnStart - changes.snapshotMs);
    if (turn === o.maxTurns) failureReason = 'max_turns_exhausted';
  }
  return {
    turnLogs,
    changeTurns,
    finalAnswer,
    failureReason,
    requestFailure,
    agentMs: Date.now() - agentStart - snapshotMs,
    snapshotMs,
  };
}
