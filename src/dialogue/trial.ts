/**
 * One dialogue trial: a fresh environment from the scenario's seed, the conversation (drive-dialogue.ts),
 * the verdict on the final state (judge.ts), and the trial record in the results format every
 * report reads. No sandbox: the environment lives in the harness.
 */
import { conditionHook } from '../agent/condition-hook.js';
import { requestFailedTrial } from '../agent/error-trial.js';
import { judgeSafety } from '../agent/injection/judge.js';
import { planInjection } from '../agent/injection/plan.js';
import { judgedTrial } from '../agent/trial-record.js';
import { round3 } from '../agent/turn-log.js';
import type { ChatModel } from '../models/types.js';
import { CLEAN, type RunCondition, type TaskSlot } from '../results/condition.js';
import { type EventSink, trialEndEvent } from '../results/events.js';
import type { TrialRecord } from '../results/trial.js';
import { dialogueSystemPrompt } from './agent-prompt.js';
import { driveDialogue } from './drive-dialogue.js';
import { openDesk } from './helpdesk/desk.js';
import { type DeskState, mainTicket } from './helpdesk/state.js';
import { judgeScenario, userReplies } from './judge.js';
import type { DialoguePack, Scenario } from './pack.js';
import { type UserChoice, userFor } from './user/user-choice.js';

export interface DialogueTrialOptions {
  index: number;
  pack: Pick<DialoguePack, 'organisation' | 'policy'>;
  scenario: Scenario;
  agent: ChatModel;
  user: UserChoice;
  maxTurns: number;
  /** Faults or injection payloads at the domain tools (default clean). */
  condition?: RunCondition;
  slot?: TaskSlot;
  onEvent?: EventSink;
  signal?: AbortSignal;
}

export function scenarioPrompt(pack: DialogueTrialOptions['pack'], scenario: Scenario): string {
  return dialogueSystemPrompt({
    organisation: pack.organisation,
    now: scenario.seed.now,
    policy: pack.policy,
  });
}

export async function runDialogueTrial(o: DialogueTrialOptions): Promise<TrialRecord> {
  const { scenario, index } = o;
  const emit = o.onEvent ?? (() => {});
  const startedAt = new Date().toISOString();
  const desk = openDesk(scenario.seed, scenario.file.tools);
  const { user, record: userRecord } = userFor(o.user, scenario.file.user);
  const wanted = scenario.file.user.satisfied_when.ticket_status;
  const condition = o.condition ?? CLEAN;
  // No sandbox, so no secret to plant: a dialogue's payload is judged on its nonce (judgeSafety).
  const adversarial =
    condition.name === 'adversarial'
      ? planInjection({ kind: 'dialogue', id: scenario.file.id }, index, condition, o.slot)
      : null;
  const hook = conditionHook(condition, adversarial, {
    taskId: scenario.file.id,
    index,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });

  emit({ type: 'trial_start', trial: index });
  const driven = await driveDialogue({
    index,
    systemPrompt: scenarioPrompt(o.pack, scenario),
    agent: o.agent,
    user,
    env: desk,
    satisfied: () => {
      const ticket = mainTicket(desk.state);
      return ticket !== null && wanted.includes(ticket.status);
    },
    maxTurns: o.maxTurns,
    emit,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    ...(hook === undefined ? {} : { hook }),
  });
  const elapsedSec = round3(driven.agentMs / 1000);

  if (driven.requestFailure !== null) {
    // A server failed (the agent's or the user's), not the model.
    return requestFailedTrial(
      { index, startedAt, ...driven.requestFailure, turnLogs: driven.turnLogs, elapsedSec },
      emit,
    );
  }

  // The desk is the harness's own code: a tool that threw is a bug of ours (an error trial).
  if (driven.toolError !== null) throw driven.toolError.error;

  const judgeStart = Date.now();
  const verdict = judgeScenario(scenario, desk.state, {
    calls: driven.calls,
    userReplies: userReplies(driven.turnLogs),
  });
  const lastMessage = driven.turnLogs.findLast((t) => t.user_reply !== undefined)?.assistant_text ?? null;
  const record = judgedTrial({
    index,
    startedAt,
    turnLogs: driven.turnLogs,
    end: driven.end,
    elapsedSec,
    harnessSec: round3((Date.now() - judgeStart) / 1000),
    // A model that gave no reply in time fails, whatever the desk's state says (the flags stay as judged).
    verdict:
      driven.modelTimeout === null
        ? { ...verdict, tamperViolations: [] }
        : { ...verdict, passed: false, score: 0, tamperViolations: [], fault: driven.modelTimeout },
    finalAnswer: lastMessage,
    ...(adversarial === null
      ? {}
      : {
          safety: judgeSafety(adversarial, {
            turnLogs: driven.turnLogs,
            finalAnswer: lastMessage,
            files: new Map(),
            toUser: driven.turnLogs.flatMap((t) => (t.user_reply === undefined ? [] : [t.assistant_text])),
          }),
        }),
    dialogue: {
      dimension: scenario.file.dimension,
      opening: user.opening,
      user: userRecord,
      end: driven.end === 'user_ended' ? 'user_ended' : 'max_turns',
      state_changes: driven.calls.flatMap((c) =>
        c.changes.map((change) => ({ turn: c.turn, tool: c.name, change })),
      ),
      final_state: finalState(desk.state),
      user_usage: driven.userUsage,
    },
  });
  emit(trialEndEvent(record));
  return record;
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
