/**
 * One trial in three parts: prepare the workspace and drive the model's turns (drive.ts), judge
 * every flag from the record and from ground truth the harness gathers itself (judge.ts), and build
 * the trial record (trial-record.ts, the builder the dialogue trials use too).
 */
import type { ChatModel } from '../models/types.js';
import { CLEAN, type RunCondition, type TaskSlot } from '../results/condition.js';
import { type EventSink, trialEndEvent } from '../results/events.js';
import type { ArtifactRecord, SafetyRecord, TrialRecord } from '../results/trial.js';
import type { Sandbox, WorkspaceSnapshot } from '../sandbox/types.js';
import type { WorkspaceTask } from '../tasks/types.js';
import { withDeadline } from '../util/deadline.js';
import { exportArtifacts } from './artifacts.js';
import { attribute, type TrialPhase } from './attribution.js';
import { conditionHook } from './condition-hook.js';
import type { CallHook } from './dispatch.js';
import { type AgentTurns, driveTurns } from './drive.js';
import { errorTrial, requestFailedTrial } from './error-trial.js';
import { withoutFaults } from './faults.js';
import { harborOracleHook } from './harbor-oracle.js';
import { judgeSafety, writtenFiles } from './injection/judge.js';
import { type InjectionPlan, planInjection, plantSecret } from './injection/plan.js';
import { judgeTrial, type Verdict } from './judge.js';
import { connectMcpServers, type McpToolbox, offeredTools } from './mcp/connect.js';
import type { DispatchLimits } from './tools/tool.js';
import { faultedTrial, judgedTrial, type TrialFacts } from './trial-record.js';
import { round3 } from './turn-log.js';
import { prepareWorkspace } from './workspace.js';

/**
 * Hard bounds on the harness's phases of a trial, a backstop behind the deadline every engine call
 * and every command has: past one the trial is the harness's error and its sandbox is not used
 * again (src/run/run-task.ts). The turns are bounded by max turns times the command timeout and the
 * model's request timeout.
 */
const SETUP_BOUND_MS = 10 * 60_000;
const JUDGE_BOUND_MS = 30 * 60_000;

export interface TrialOptions {
  index: number;
  task: WorkspaceTask;
  model: ChatModel;
  sandbox: Sandbox;
  maxTurns: number;
  limits: DispatchLimits;
  onEvent?: EventSink;
  signal?: AbortSignal;
  /** Where to export this trial's artifacts: absolute folder, and the same relative to the results folder. */
  artifacts?: { dir: string; relative: string };
  /** Faults or injection payloads at the tool calls (default clean). */
  condition?: RunCondition;
  /** The task's place in the run: which injection class the trial is dealt (injection/deal.ts). */
  slot?: TaskSlot;
}

export async function runTrial(opts: TrialOptions): Promise<TrialRecord> {
  const { task, sandbox, index } = opts;
  const emit = opts.onEvent ?? (() => {});
  const startedAt = new Date().toISOString();
  const setup = await withDeadline(prepareTrial(opts), SETUP_BOUND_MS, 'preparing the trial');

  emit({ type: 'trial_start', trial: index });
  const timeLimitSec = task.kind === 'harbor' ? task.harbor.agentTimeoutSec : undefined;
  const turns = await driveTurns({
    tools: offeredTools(task.tools ?? 'all', setup.mcp),
    index,
    prompt: task.prompt,
    model: opts.model,
    sandbox,
    maxTurns: opts.maxTurns,
    limits: opts.limits,
    emit,
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    ...hooked(
      harborOracleHook(
        task,
        opts.model,
        sandbox,
        opts.limits,
        conditionHook(opts.condition ?? CLEAN, setup.adversarial, {
          taskId: task.id,
          index,
          ...(opts.signal === undefined ? {} : { signal: opts.signal }),
        }),
      ),
    ),
    ...(timeLimitSec === undefined ? {} : { timeLimitMs: timeLimitSec * 1000 }),
  }).finally(() => setup.mcp.close());
  const elapsedSec = round3(turns.agentMs / 1000);
  // Setup, the snapshots, and whatever the harness did since `since` (judging).
  const harnessSec = (since: number): number =>
    round3((setup.ms + turns.asideMs + (Date.now() - since)) / 1000);

  const facts = (since: number) => ({
    index,
    startedAt,
    turnLogs: turns.turnLogs,
    elapsedSec,
    harnessSec: harnessSec(since),
  });
  if (turns.requestFailure !== null) {
    // The model server failed, not the model.
    return requestFailedTrial({ ...facts(Date.now()), ...turns.requestFailure }, emit);
  }
  if (turns.modelTimeout !== null) {
    // The server answered, the model did not in time: its failure, measured like a stalled tool.
    const record = faultedTrial({
      ...facts(Date.now()),
      end: 'request_timeout',
      flags: task.flags,
      fault: turns.modelTimeout,
    });
    emit(trialEndEvent(record));
    return record;
  }
  if (turns.toolError !== null)
    return unjudged(opts, { ...facts(Date.now()), end: 'tool_stalled' }, turns.toolError.error, 'turns');

  const judgeStart = Date.now();
  let judged: Judged;
  try {
    judged = await withDeadline(judge(opts, setup, turns), JUDGE_BOUND_MS, 'judging the trial');
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return unjudged(opts, { ...facts(judgeStart), end: turns.end }, err, 'judging');
  }
  const record = judgedTrial({
    index,
    startedAt,
    turnLogs: turns.turnLogs,
    end: turns.end,
    elapsedSec,
    harnessSec: harnessSec(judgeStart),
    verdict: judged.verdict,
    finalAnswer: turns.finalAnswer,
    ...(timeLimitSec === undefined ? {} : { timeLimitSec }),
    artifacts: judged.artifacts,
    ...(judged.safety === null ? {} : { safety: judged.safety }),
  });
  emit(trialEndEvent(record));
  return record;
}

/**
 * A trial that could not be judged: a tool threw during the turns, or the judging did. Whose
 * failure it is decides the record (attribution.ts): the agent's is a measured failed trial, the
 * harness's an error trial; the turns are kept either way.
 */
function unjudged(opts: TrialOptions, facts: TrialFacts, err: unknown, phase: TrialPhase): TrialRecord {
  const blame = attribute(err, phase);
  const record =
    blame.charge === 'agent'
      ? faultedTrial({ ...facts, flags: opts.task.flags, fault: blame.fault })
      : errorTrial({
          ...facts,
          reason: `harness_error: ${phase === 'judging' ? 'judging failed: ' : ''}${blame.reason}`,
          error: { kind: 'harness' },
        });
  (opts.onEvent ?? (() => {}))(trialEndEvent(record));
  return record;
}

interface Setup {
  setupSnapshot: WorkspaceSnapshot;
  adversarial: InjectionPlan | null;
  /** The task's MCP servers, connected (none when it declares none); closed when the turns end. */
  mcp: McpToolbox;
  /** Harness time spent on it. */
  ms: number;
}

/**
 * A fresh workspace with the task's files, the adversarial condition's secret planted, and the
 * task's MCP servers connected (one that cannot be reached throws: the trial is an error trial).
 */
async function prepareTrial(opts: TrialOptions): Promise<Setup> {
  const start = Date.now();
  await opts.sandbox.reset();
  const setupSnapshot = await prepareWorkspace(opts.sandbox, opts.task);
  const condition = opts.condition ?? CLEAN;
  const adversarial =
    condition.name === 'adversarial' ? planInjection(opts.task, opts.index, condition, opts.slot) : null;
  if (adversarial !== null) await plantSecret(opts.sandbox, adversarial);
  const mcp = await connectMcpServers(opts.task.mcpServers ?? [], opts.sandbox, opts.limits.commandTimeoutMs);
  return { setupSnapshot, adversarial, mcp, ms: Date.now() - start };
}

interface Judged {
  verdict: Verdict;
  artifacts: { files: ArtifactRecord[]; dir: string | null };
  safety: SafetyRecord | null;
}

/** The verdict on the flags, the artifacts exported, and under attack the safety flags. */
async function judge(opts: TrialOptions, setup: Setup, turns: AgentTurns): Promise<Judged> {
  const { task, sandbox } = opts;
  // A call answered with an injected fault ran nothing: no check may take it as evidence.
  const verdict = await judgeTrial(
    task,
    sandbox,
    { ...turns, turnLogs: withoutFaults(turns.turnLogs) },
    setup.setupSnapshot,
  );
  const files =
    opts.artifacts === undefined
      ? []
      : await exportArtifacts(sandbox, task, setup.setupSnapshot, verdict.finalSnapshot, opts.artifacts);
  const dir = files.length > 0 && opts.artifacts !== undefined ? opts.artifacts.relative : null;
  const { adversarial } = setup;
  const safety =
    adversarial === null
      ? null
      : judgeSafety(adversarial, {
          turnLogs: turns.turnLogs,
          finalAnswer: turns.finalAnswer,
          files: await writtenFiles(
            sandbox,
            adversarial,
            turns.turnLogs,
            setup.setupSnapshot,
            verdict.finalSnapshot,
          ),
        });
  return { verdict, artifacts: { files, dir }, safety };
}

function hooked(hook: CallHook | undefined): { hook?: CallHook } {
  return hook === undefined ? {} : { hook };
}
