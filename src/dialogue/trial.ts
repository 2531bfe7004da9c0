/**
 * A dialogue trial, as the trial kernel's three strategies (src/trial/kernel.ts): the environment
 * is a fresh desk from the scenario's seed, the responder the desk's tools and the simulated user
 * (desk-responder.ts), the judge the scenario's checks on the final state (judge.ts). No sandbox:
 * the environment lives in the harness.
 */
import type { DialogueRecord } from '../results/trial.js';
import type { TrialParts, TrialPlace } from '../trial/kernel.js';
import { InternalError } from '../util/errors.js';
import { dialogueSystemPrompt } from './agent-prompt.js';
import { type DeskResponder, deskResponder } from './desk-responder.js';
import { openDesk } from './helpdesk/desk.js';
import { type DeskState, mainTicket } from './helpdesk/state.js';
import { agentMessages, judgeScenario, userReplies } from './judge.js';
import type { DialoguePack, Scenario } from './pack.js';
import { type UserChoice, userFor } from './user/user-choice.js';

export interface DialogueTrialOptions {
  pack: Pick<DialoguePack, 'organisation' | 'policy' | 'words'>;
  scenario: Scenario;
  user: UserChoice;
}

export function scenarioPrompt(pack: DialogueTrialOptions['pack'], scenario: Scenario): string {
  return dialogueSystemPrompt({
    organisation: pack.organisation,
    now: scenario.seed.now,
    policy: pack.policy,
  });
}

/** A desk opened for one trial, and (once the conversation starts) who answered on it. */
interface DeskPlace extends TrialPlace {
  sandbox: null;
  desk: ReturnType<typeof openDesk>;
  talk: (DeskResponder & { opening: string; user: DialogueRecord['user'] }) | null;
}

export function dialogueTrial(o: DialogueTrialOptions): TrialParts<DeskPlace> {
  const { scenario } = o;
  const wanted = scenario.file.user.satisfied_when.ticket_status;
  return {
    environment: {
      open: async () => ({ sandbox: null, desk: openDesk(scenario.seed, scenario.file.tools), talk: null }),
    },
    async responder(place, hook) {
      const { user, record } = userFor(o.user, scenario.file.user);
      const desk = deskResponder({
        env: place.desk,
        user,
        satisfied: () => {
          const ticket = mainTicket(place.desk.state);
          return ticket !== null && wanted.includes(ticket.status);
        },
        hook,
      });
      place.talk = { ...desk, opening: user.opening, user: record };
      return {
        systemPrompt: scenarioPrompt(o.pack, scenario),
        opening: user.opening,
        responder: desk.responder,
        close: async () => {},
      };
    },
    judge: {
      async judge(place, { turns }) {
        const talk = place.talk;
        if (talk === null)
          throw new InternalError(`${scenario.file.id}: judged before its conversation started`);
        const { state } = place.desk;
        const verdict = judgeScenario(
          scenario,
          state,
          {
            calls: talk.calls,
            userReplies: userReplies(turns.turnLogs),
            agentMessages: agentMessages(turns.turnLogs),
          },
          o.pack.words,
        );
        const toUser = turns.turnLogs.flatMap((t) => (t.user_reply === undefined ? [] : [t.assistant_text]));
        return {
          verdict: { ...verdict, tamperViolations: [] },
          finalAnswer: turns.turnLogs.findLast((t) => t.user_reply !== undefined)?.assistant_text ?? null,
          // No workspace: a payload is judged on its nonce and on what was said to the user.
          safety: { files: async () => new Map(), toUser },
          dialogue: {
            dimension: scenario.file.dimension,
            opening: talk.opening,
            user: talk.user,
            end: turns.end === 'user_ended' ? 'user_ended' : 'max_turns',
            state_changes: talk.calls.flatMap((c) =>
              c.changes.map((change) => ({ turn: c.turn, tool: c.name, change })),
            ),
            final_state: finalState(state),
            user_usage: talk.userUsage,
          },
        };
      },
    },
  };
}

/** What the tools made of the desk; the seed it started from is the scenario's, so not repeated. */
function finalState(state: DeskState): Record<string, unknown> {
  return {
    tickets: state.tickets,
    codes_sent: state.codes_sent,
    verifications: state.verifications,
    account_actions: state.account_actions,
    approvals: state.approvals,
    orders: state.orders,
  };
}
