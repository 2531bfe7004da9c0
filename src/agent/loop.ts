/**
 * One trial in three parts: prepare the workspace and drive the model's turns (drive.ts), judge
 * every flag from the record and from ground truth the harness gathers itself (judge.ts), and build
 * the trial record.
 */
import type { ChatModel } from '../models/types.js';
import { CLEAN, type RunCondition } from '../results/condition.js';
import { type EventSink, trialEndEvent } from '../results/events.js';
import type { TrialRecord } from '../results/trial.js';
import type { Sandbox } from '../sandbox/types.js';
import type { WorkspaceTask } from '../tasks/types.js';
import { errorMessage } from '../util/errors.js';
import { capHeadTail } from '../util/text-cap.js';
import { exportArtifacts } from './artifacts.js';
import type { CallHook } from './dispatch.js';
import { driveTurns } from './drive.js';
import { errorTrial, requestFailedTrial } from './error-trial.js';
import { faultHook, withoutFaults } from './faults.js';
import { judgeSafety, writtenFiles } from './injection/judge.js';
import { type InjectionPlan, injectionHook, planInjection, plantSecret } from './injection/plan.js';
import { failureReason, judgeTrial } from './judge.js';
import type { DispatchLimits } from './tools/tool.js';
import { callCounts, MAX_LOGGED_TEXT_CHARS, round3, sumUsage } from './turn-log.js';
import { prepareWorkspace } from './workspace.js';

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
}

export async function runTrial(opts: TrialOptions): Promise<TrialRecord> {
  const { task, sandbox, index } = opts;
  const emit = opts.onEvent ?? (() => {});
  const startedAt = new Date().toISOString();
  const harnessStart = Date.now();

  await sandbox.reset();
  const setupSnapshot = await prepareWorkspace(sandbox, task);
  const condition = opts.condition ?? CLEAN;
  const adversarial = condition.name === 'adversarial' ? planInjection(task, index) : null;
  if (adversarial !== null) await plantSecret(sandbox, adversarial);
  const setupMs = Date.now() - harnessStart;

  emit({ type: 'trial_start', trial: index });
  const turns = await driveTurns({
    index,
    prompt: task.prompt,
    model: opts.model,
    sandbox,
    maxTurns: opts.maxTurns,
    limits: opts.limits,
    emit,
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    ...hookFor(condition, adversarial, opts),
    ...(task.kind === 'harbor' ? { timeLimitMs: task.harbor.agentTimeoutSec * 1000 } : {}),
  });

  if (turns.requestFailure !== null) {
    // The model server failed, not the model.
    return requestFailedTrial(
      {
        index,
        startedAt,
        ...turns.requestFailure,
        turnLogs: turns.turnLogs,
        elapsedSec: round3(turns.agentMs / 1000),
        harnessSec: round3((setupMs + turns.snapshotMs) / 1000),
      },
      emit,
    );
  }

  const judgeStart = Date.now();
  let verdict: Awaited<ReturnType<typeof judgeTrial>>;
  try {
    // A call answered with an injected fault ran nothing: no check may take it as evidence.
    verdict = await judgeTrial(
      task,
      sandbox,
      { ...turns, turnLogs: withoutFaults(turns.turnLogs) },
      setupSnapshot,
    );
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    // The harness could not judge (the sandbox failed under the checks, a check's regex ran out of
    // time): the turns are kept, nothing is scored.
    const record = errorTrial({
      index,
      startedAt,
      reason: `harness: judging failed: ${errorMessage(err)}`,
      error: { kind: 'harness' },
      turnLogs: turns.turnLogs,
      elapsedSec: round3(turns.agentMs / 1000),
      harnessSec: round3((setupMs + turns.snapshotMs + (Date.now() - judgeStart)) / 1000),
    });
    emit(trialEndEvent(record));
    return record;
  }
  const artifacts =
    opts.artifacts === undefined
      ? []
      : await exportArtifacts(sandbox, task, setupSnapshot, verdict.finalSnapshot, opts.artifacts);
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
            setupSnapshot,
            verdict.finalSnapshot,
          ),
        });
  const harnessMs = setupMs + turns.snapshotMs + (Date.now() - judgeStart);

  const record: TrialRecord = {
    index,
    status: verdict.passed ? 'passed' : 'failed',
    passed: verdict.passed,
    score: verdict.score,
    flags: verdict.flags,
    tamper_detected: verdict.tamperViolations.length > 0,
    tamper_violations: verdict.tamperViolations,
    failure_reason: failureReason(verdict, turns.failureReason),
    turns: turns.turnLogs.length,
    elapsed_sec: round3(turns.agentMs / 1000),
    harness_sec: round3(harnessMs / 1000),
    usage: sumUsage(turns.turnLogs),
    final_answer:
      turns.finalAnswer === null ? null : capHeadTail(turns.finalAnswer, MAX_LOGGED_TEXT_CHARS).text,
    ...callCounts(turns.turnLogs),
    started_at: startedAt,
    artifacts,
    artifacts_dir: artifacts.length > 0 && opts.artifacts !== undefined ? opts.artifacts.relative : null,
    turn_logs: turns.turnLogs,
    ...(safety === null ? {} : { safety }),
  };
  emit(trialEndEvent(record));
  return record;
}

/** The hook that puts the trial's condition at its tool calls; none when clean. */
function hookFor(
  condition: RunCondition,
  adversarial: InjectionPlan | null,
  opts: TrialOptions,
): { hook?: CallHook } {
  if (adversarial !== null) return { hook: injectionHook(adversarial) };
  if (condition.name !== 'noisy') return {};
  return {
    hook: faultHook({
      taskId: opts.task.id,
      trial: opts.index,
      failureRate: condition.failure_rate,
      timeoutMs: condition.fault_timeout_sec * 1000,
      ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    }),
  };
}
