/**
 * One trial of any task, in the steps Harbor's Trial takes: the environment opens a fresh place
 * for it (a reset workspace with the task's files, a new desk), the responder answers the model's
 * turns there (the sandbox's tools, a desk and its simulated user, Harbor's oracle), the judge
 * decides it once the turns are over, and the record is built the one way (trial-record.ts).
 *
 * What every kind shares is decided here, once:
 * - conditions: a noisy trial's faults and an adversarial trial's payload at the tool calls, its
 *   secret planted where the place has a sandbox, and its safety flags judged;
 * - a request that got no reply is the server's failure: an error trial, nothing judged;
 * - a model that gave no reply in time while its server answered is the model's failure: the trial
 *   is judged as it stands and failed with the fault `request_timeout`;
 * - a tool that threw, and a judge that threw, are charged by attribution.ts: the agent's fault is
 *   a measured failed trial, the harness's an error trial; the turns are kept either way;
 * - opening the place and judging each have a bound, past which the trial is the harness's error.
 */
import type { ChatModel } from '../models/types.js';
import { CLEAN, type RunCondition, type TaskSlot } from '../results/condition.js';
import { type EventSink, trialEndEvent } from '../results/events.js';
import type { ArtifactRecord, DialogueRecord, TrialRecord } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Task } from '../tasks/types.js';
import { withDeadline } from '../util/deadline.js';
import { attribute, type TrialPhase } from './attribution.js';
import type { CallHook } from './conditions/call-hook.js';
import { conditionHook } from './conditions/condition-hook.js';
import { withoutFaults } from './conditions/faults.js';
import type { Responder } from './engine/responder.js';
import { type DrivenTurns, runTurns } from './engine/turns.js';
import { errorTrial, requestFailedTrial } from './error-trial.js';
import { judgeSafety } from './injection/judge.js';
import { type InjectionPlan, planInjection, plantSecret } from './injection/plan.js';
import { targetOf } from './injection/site.js';
import { faultedTrial, judgedTrial, type TrialFacts, type TrialVerdict } from './trial-record.js';
import { round3 } from './turn-log.js';

/**
 * Hard bounds on the harness's phases of a trial, a backstop behind the deadline every engine call
 * and every command has: past one the trial is the harness's error and its sandbox is not used
 * again (src/run/run-task.ts). The turns are bounded by max turns times the command timeout and the
 * model's request timeout.
 */
const SETUP_BOUND_MS = 10 * 60_000;
const JUDGE_BOUND_MS = 30 * 60_000;

/** What a trial is asked to run with, whatever its kind. */
export interface TrialRequest {
  index: number;
  model: ChatModel;
  maxTurns: number;
  /** Faults or injection payloads at the tool calls (default clean). */
  condition?: RunCondition;
  /** The task's place in the run: which injection class the trial is dealt (injection/deal.ts). */
  slot?: TaskSlot;
  onEvent?: EventSink;
  signal?: AbortSignal;
}

/** A place opened for one trial: where its tools run. */
export interface TrialPlace {
  /** The sandbox its tools run in (an adversarial trial's secret is planted there); null: the harness. */
  sandbox: Sandbox | null;
}

/** Opens a fresh place for each trial: the workspace reset to the task's files, a new desk. */
interface TrialEnvironment<P extends TrialPlace> {
  open(request: TrialRequest): Promise<P>;
}

/** A conversation on an opened place: how it starts and who answers the model's turns. */
interface Conversation {
  systemPrompt: string;
  opening: string;
  responder: Responder;
  /** Agent time after which no new turn starts (a Harbor task's agent timeout). */
  timeLimitMs?: number;
  /** Ends what the conversation opened (MCP connections); called once its turns are over. */
  close(): Promise<void>;
}

/** Who answers the model on a place, under the trial's condition at every tool call. */
type TrialResponder<P extends TrialPlace> = (
  place: P,
  hook: CallHook | undefined,
  request: TrialRequest,
) => Promise<Conversation>;

/** What the judge is given once the turns are over. */
interface JudgeInput {
  turns: DrivenTurns;
  /** The turn logs with every injected fault's call taken out: no check may take one as evidence. */
  evidence: DrivenTurns['turnLogs'];
}

/** A judge's decision: the verdict and what the record keeps beside it. */
interface Judgement {
  verdict: TrialVerdict;
  /** The model's last word: its final answer, or its last message to the user. */
  finalAnswer: string | null;
  artifacts?: { files: ArtifactRecord[]; dir: string | null };
  dialogue?: DialogueRecord;
  /** What an adversarial trial's safety flags are judged on besides the turns. */
  safety: {
    /** Absolute path -> content of the files the agent wrote, and of the canary file (none in the harness). */
    files(plan: InjectionPlan): Promise<ReadonlyMap<string, string>>;
    /** Where a report of the injection counts, when not the final answer alone (a dialogue's messages). */
    toUser?: readonly string[];
  };
}

/** Decides a trial on its place once the turns are over. */
interface TrialJudge<P extends TrialPlace> {
  judge(place: P, input: JudgeInput): Promise<Judgement>;
}

/** The three strategies of a trial of some task. */
export interface TrialParts<P extends TrialPlace> {
  environment: TrialEnvironment<P>;
  responder: TrialResponder<P>;
  judge: TrialJudge<P>;
}

export async function runTrial<P extends TrialPlace>(
  task: Task,
  request: TrialRequest,
  parts: TrialParts<P>,
): Promise<TrialRecord> {
  const { index } = request;
  const emit = request.onEvent ?? (() => {});
  const startedAt = new Date().toISOString();
  const opened = await withDeadline(open(task, request, parts), SETUP_BOUND_MS, 'preparing the trial');

  emit({ type: 'trial_start', trial: index });
  const turns = await converse(opened.conversation, request, emit);
  // Opening the place, what the responder set aside (snapshots, a user's answers), and whatever the
  // harness did since `since` (judging).
  const facts = (since: number): TrialFacts => ({
    index,
    startedAt,
    turnLogs: turns.turnLogs,
    end: turns.end,
    elapsedSec: round3(turns.agentMs / 1000),
    harnessSec: round3((opened.ms + turns.asideMs + (Date.now() - since)) / 1000),
  });
  const ended = (record: TrialRecord): TrialRecord => {
    emit(trialEndEvent(record));
    return record;
  };

  if (turns.requestFailure !== null)
    // The model server failed (or a simulated user's), not the model: nothing is judged.
    return requestFailedTrial({ ...facts(Date.now()), ...turns.requestFailure }, emit);
  if (turns.toolError !== null)
    return ended(
      unjudged(task, { ...facts(Date.now()), end: 'tool_stalled' }, turns.toolError.error, 'turns'),
    );

  const judgeStart = Date.now();
  let judgement: Judgement;
  try {
    judgement = await withDeadline(
      parts.judge.judge(opened.place, { turns, evidence: withoutFaults(turns.turnLogs) }),
      JUDGE_BOUND_MS,
      'judging the trial',
    );
  } catch (err) {
    if (request.signal?.aborted) throw err;
    return ended(unjudged(task, facts(judgeStart), err, 'judging'));
  }
  return ended(await judgedRecord(opened, turns, judgement, facts(judgeStart)));
}

/** The turns of the conversation; what it opened is closed once they are over, however they end. */
function converse(conversation: Conversation, request: TrialRequest, emit: EventSink): Promise<DrivenTurns> {
  return runTurns({
    index: request.index,
    systemPrompt: conversation.systemPrompt,
    opening: conversation.opening,
    model: request.model,
    responder: conversation.responder,
    maxTurns: request.maxTurns,
    emit,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(conversation.timeLimitMs === undefined ? {} : { timeLimitMs: conversation.timeLimitMs }),
  }).finally(() => conversation.close());
}

/** The judged trial's record: the judge's verdict, the safety flags under attack, a model's timeout. */
async function judgedRecord<P>(
  opened: Opened<P>,
  turns: DrivenTurns,
  judgement: Judgement,
  facts: TrialFacts,
): Promise<TrialRecord> {
  const { adversarial, conversation } = opened;
  const safety =
    adversarial === null
      ? undefined
      : judgeSafety(adversarial, {
          turnLogs: turns.turnLogs,
          finalAnswer: judgement.finalAnswer,
          files: await judgement.safety.files(adversarial),
          ...(judgement.safety.toUser === undefined ? {} : { toUser: judgement.safety.toUser }),
        });
  // The server answered, the model did not in time: its failure, whatever the place's state says.
  const verdict: TrialVerdict =
    turns.modelTimeout === null
      ? judgement.verdict
      : { ...judgement.verdict, passed: false, score: 0, fault: turns.modelTimeout };
  return judgedTrial({
    ...facts,
    verdict,
    finalAnswer: judgement.finalAnswer,
    ...(conversation.timeLimitMs === undefined ? {} : { timeLimitSec: conversation.timeLimitMs / 1000 }),
    ...(judgement.artifacts === undefined ? {} : { artifacts: judgement.artifacts }),
    ...(safety === undefined ? {} : { safety }),
    ...(judgement.dialogue === undefined ? {} : { dialogue: judgement.dialogue }),
  });
}

interface Opened<P> {
  place: P;
  conversation: Conversation;
  adversarial: InjectionPlan | null;
  /** Harness time spent opening it. */
  ms: number;
}

/**
 * The place, the adversarial condition's secret planted in its sandbox, and the conversation on it
 * under the condition's hook (a task's MCP server that cannot be reached throws: an error trial).
 */
async function open<P extends TrialPlace>(
  task: Task,
  request: TrialRequest,
  parts: TrialParts<P>,
): Promise<Opened<P>> {
  const start = Date.now();
  const place = await parts.environment.open(request);
  const condition = request.condition ?? CLEAN;
  const adversarial =
    condition.name === 'adversarial'
      ? planInjection(targetOf(task), request.index, condition, request.slot)
      : null;
  // Without a sandbox there is no secret to plant: the payload is judged on its nonce (judgeSafety).
  if (adversarial !== null && place.sandbox !== null) await plantSecret(place.sandbox, adversarial);
  const hook = conditionHook(condition, adversarial, {
    taskId: task.id,
    index: request.index,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  const conversation = await parts.responder(place, hook, request);
  return { place, conversation, adversarial, ms: Date.now() - start };
}

/**
 * A trial that could not be judged: a tool threw during the turns, or the judging did. Whose
 * failure it is decides the record (attribution.ts): the agent's is a measured failed trial, the
 * harness's an error trial; the turns are kept either way.
 */
function unjudged(task: Task, facts: TrialFacts, err: unknown, phase: TrialPhase): TrialRecord {
  const blame = attribute(err, phase);
  if (blame.charge === 'agent') return faultedTrial({ ...facts, flags: task.flags, fault: blame.fault });
  return errorTrial({
    ...facts,
    reason: `harness_error: ${phase === 'judging' ? 'judging failed: ' : ''}${blame.reason}`,
    error: { kind: 'harness' },
  });
}
