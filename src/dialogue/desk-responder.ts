/**
 * Who answers the agent in a dialogue: the environment its tool calls (the results go back to the
 * agent), the simulated user every reply without calls (the user's answer is the agent's next
 * message). The turns themselves are the trial kernel's (src/trial/engine/turns.ts).
 */
import { ModelRequestError, ModelTimeoutError } from '../models/types.js';
import type { TokenUsage } from '../results/trial.js';
import type { CallHook } from '../trial/conditions/call-hook.js';
import type { Responder } from '../trial/engine/responder.js';
import { dispatchEnvCall } from './dispatch.js';
import type { DialogueEnvironment } from './environment.js';
import type { SimulatedUser, UserView } from './user/simulated-user.js';

/** A call that ran, with the turn it ran on (in order: the i-th is the environment's step i). */
interface TurnCall {
  turn: number;
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  changes: string[];
}

export interface DeskResponder {
  responder: Responder;
  /** Filled as the calls run. */
  calls: TurnCall[];
  /** The user model's tokens, added up as it answers. */
  userUsage: TokenUsage;
}

export function deskResponder(o: {
  env: DialogueEnvironment;
  user: SimulatedUser;
  /** The scenario's satisfaction condition on the environment, for the user. */
  satisfied: () => boolean;
  /** The trial's condition at each domain tool call (noisy faults, adversarial payloads); none when clean. */
  hook: CallHook | undefined;
}): DeskResponder {
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
