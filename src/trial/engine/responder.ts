/**
 * Who answers the model in a conversation: its tool calls (the sandbox's tools, a task's domain
 * tools) and its replies without any (a final answer, or a message a simulated user answers). The
 * turn engine (turns.ts) is the same whoever answers.
 */
import type { ParsedToolCall, RequestFailure, ToolSpec } from '../../models/types.js';
import type { ToolCallLog, TurnLog } from '../../results/trial.js';

export interface CallAnswer {
  /** The entry for the results (its arguments not yet capped). */
  log: ToolCallLog;
  /** What the model is shown. */
  reply: string;
  /** The call in a few words, for the tool_call event. */
  arg: string;
}

/** What a reply without tool calls led to. */
export type ReplyAnswer =
  /** The conversation is over: the model answered, or the user ended it. */
  | { kind: 'end'; end: 'final_answer' | 'user_ended' }
  /** The user's answer, the model's next message. */
  | { kind: 'continue'; message: string }
  /** The answer's own request got no reply (a user model's server failed). */
  | { kind: 'request_failed'; message: string; failure: RequestFailure };

export interface Responder {
  /** The tools the model is offered. */
  readonly tools: readonly ToolSpec[];
  /** Runs one tool call of `turn`. */
  call(call: ParsedToolCall, turn: number): Promise<CallAnswer>;
  /**
   * Answers a reply without tool calls (one that could be parsed); may note what it did on the turn's
   * log. Its time is not the model's.
   */
  answer(text: string, log: TurnLog, signal?: AbortSignal): Promise<ReplyAnswer>;
  /** After a turn's tool calls ran: harness work on the turn (a workspace look); the ms it cost the turn. */
  endTurn?(turn: number): Promise<number>;
}
