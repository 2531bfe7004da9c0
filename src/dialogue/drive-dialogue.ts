/**
 * Drives one conversation: agent ↔ user ↔ tools, on the agent's turn engine (src/agent/engine/). The
 * agent's reply either calls tools (they run against the environment and the results go back to the
 * agent) or, with no calls, is a message to the user, whose answer comes back as the next user
 * message. Ends when the user ends it, when a request gets no reply (the agent's or the user
 * model's server failed), or at max turns. Only the tools and the user are this module's.
 */
import type { CallHook } from '../agent/dispatch.js';
import type { Responder } from '../agent/engine/responder.js';
import { type DrivenTurns, runTurns } from '../agent/engine/turns.js';
import { type ChatModel, ModelRequestError, ModelTimeoutError } from '../models/types.js';
import type { EventSink } from '../results/events.js';
import type { TokenUsage } from '../results/trial.js';
import { dispatchEnvCall } from './dispatch.js';
import type { DialogueEnvironment } from './environment.js';
import type { SimulatedUser, UserView } from './user/simulated-user.js';

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
  /** The trial's condition at each domain tool call (noisy faults, adversarial payloads); none when clean. */
  hook?: CallHook;
}

/** A call that ran, with the turn it ran on (in order: the i-th is the environment's step i). */
interface TurnCall {
  turn: number;
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  changes: string[];
}

export interface DrivenDialogue extends DrivenTurns {
  calls: TurnCall[];
  userUsage: TokenUsage;
}

export async function driveDialogue(o: DialogueOptions): Promise<DrivenDialogue> {
  const desk = deskResponder(o);
  const turns = await runTurns({
    index: o.index,
    systemPrompt: o.systemPrompt,
    opening: o.user.opening,
    model: o.agent,
    responder: desk.responder,
    maxTurns: o.maxTurns,
    emit: o.emit,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  return { ...turns, calls: desk.calls, userUsage: desk.userUsage };
}

/** The environment answers the tool calls, the simulated user every other message. */
function deskResponder(o: Pick<DialogueOptions, 'env' | 'user' | 'satisfied' | 'hook'>): {
  responder: Responder;
  calls: TurnCall[];
  userUsage: TokenUsage;
} {
  const calls: TurnCall[] = [];
  const userUsage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  const view: UserView = {
    callCount: (name) => calls.filter((c) => c.ok && c.name === name).length,
    satisfied: o.satisfied,
  };
  const responder: Responder = {
    tools: o.env.tools,
    async call(call, turn) {
      const outcome = await dispatchEnvCall(call, o.env, o.hook, turn);
      if (outcome.ran !== null && call.arguments !== null)
        calls.push({ turn, name: call.name, arguments: call.arguments, ...outcome.ran });
      return { log: outcome.log, reply: outcome.reply, arg: call.rawArguments.slice(0, 160) };
    },
    async answer(text, log, signal) {
      try {
        const answer = await o.user.reply(text, view, signal);
        log.user_reply = { text: answer.text, ended: answer.ended };
        userUsage.prompt_tokens += answer.usage?.prompt_tokens ?? 0;
        userUsage.completion_tokens += answer.usage?.completion_tokens ?? 0;
        return answer.ended ? { kind: 'end', end: 'user_ended' } : { kind: 'continue', message: answer.text };
      } catch (err) {
        if (signal?.aborted) throw err;
        // The simulated user is the harness's: its model too slow is no failure of the agent's model.
        if (err instanceof ModelTimeoutError)
          return {
            kind: 'request_failed',
            message: `user model: ${err.message}`,
            failure: { kind: 'unreachable' },
          };
        if (!(err instanceof ModelRequestError)) throw err;
        return { kind: 'request_failed', message: `user model: ${err.message}`, failure: err.failure };
      }
    },
  };
  return { responder, calls, userUsage };
}
