/**
 * One trial: prepare the workspace, let the model drive the tools turn by turn, then decide every
 * flag from the record and from ground truth the harness gathers itself.
 */
import { type ChatMessage, type ChatModel, type ModelReply, ModelRequestError } from '../models/types.js';
import type { EventSink } from '../results/events.js';
import type { TrialRecord, TurnLog } from '../results/trial.js';
import type { Sandbox, WorkspaceSnapshot } from '../sandbox/types.js';
import { scoreTrial } from '../scoring/score.js';
import { detectTamper } from '../scoring/snapshot-diff.js';
import type { Task } from '../tasks/types.js';
import { exportArtifacts } from './artifacts.js';
import { type DispatchLimits, dispatchToolCall } from './dispatch.js';
import { evaluateFlags } from './evaluate.js';
import { SYSTEM_PROMPT } from './system-prompt.js';
import { TOOL_SPECS } from './tool-specs.js';
import { callCounts, errorTurn, round3, summarizeArg, sumUsage, turnLogFrom } from './turn-log.js';
import { prepareWorkspace } from './workspace.js';

export interface TrialOptions {
  index: number;
  task: Task;
  model: ChatModel;
  sandbox: Sandbox;
  maxTurns: number;
  limits: DispatchLimits;
  onEvent?: EventSink;
  signal?: AbortSignal;
  /** Where to export this trial's artifacts: absolute folder, and the same relative to the results folder. */
  artifacts?: { dir: string; relative: string };
}

export async function runTrial(opts: TrialOptions): Promise<TrialRecord> {
  const { task, model, sandbox, index } = opts;
  const emit = opts.onEvent ?? (() => {});
  const startedAt = new Date().toISOString();
  const harnessStart = Date.now();

  await sandbox.reset();
  const setupSnapshot = await prepareWorkspace(sandbox, task);
  const setupMs = Date.now() - harnessStart;
  let snapshotMs = 0;

  emit({ type: 'trial_start', trial: index });
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: task.prompt },
  ];
  const turnLogs: TurnLog[] = [];
  const perTurn: { turn: number; snapshot: WorkspaceSnapshot }[] = [];
  let finalAnswer: string | null = null;
  let failureReason: string | null = null;
  const agentStart = Date.now();

  for (let turn = 1; turn <= opts.maxTurns; turn++) {
    opts.signal?.throwIfAborted();
    const turnStart = Date.now();
    let reply: ModelReply;
    try {
      reply = await model.complete(messages, TOOL_SPECS, opts.signal);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      if (!(err instanceof ModelRequestError)) throw err;
      failureReason = `llm_error: ${err.message}`;
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
        messages.push({ role: 'assistant', content: reply.text, toolCalls: [] });
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
      const outcome = await dispatchToolCall(call, sandbox, opts.limits);
      log.tool_calls.push(outcome.log);
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
    // The per-turn snapshot is harness work: it counts in harness_sec, not in the model's time.
    const snapStart = Date.now();
    log.elapsed_ms = snapStart - turnStart;
    perTurn.push({ turn, snapshot: await sandbox.snapshot() });
    snapshotMs += Date.now() - snapStart;
    if (turn === opts.maxTurns) failureReason = 'max_turns_exhausted';
  }
  const agentMs = Date.now() - agentStart - snapshotMs;

  // Ground truth: nothing the agent left running may change the workspace from here on.
  const evalStart = Date.now();
  await sandbox.killAgentProcesses();
  const finalSnapshot = await sandbox.snapshot();
  const lastTurn = turnLogs.length;
  if (lastTurn > 0) perTurn.push({ turn: lastTurn, snapshot: finalSnapshot });

  const flags = await evaluateFlags({
    task,
    sandbox,
    turnLogs,
    setupSnapshot,
    perTurn,
    finalSnapshot,
    finalAnswer,
  });
  const violations = detectTamper(setupSnapshot, finalSnapshot, {
    allowedWrites: task.allowedWrites,
    ignored: task.ignored,
  });
  const tamper = violations.length > 0;
  const { passed, score } = scoreTrial(task.flags, flags, tamper);
  const artifacts =
    opts.artifacts === undefined
      ? []
      : await exportArtifacts(sandbox, task, setupSnapshot, finalSnapshot, opts.artifacts.dir);
  const harnessMs = setupMs + snapshotMs + (Date.now() - evalStart);

  if (tamper)
    failureReason = `tampering: ${violations
      .slice(0, 5)
      .map((v) => `${v.change} ${v.path}`)
      .join('; ')}`;
  else if (!passed && failureReason === null) {
    const missed = Object.entries(flags)
      .filter(([, f]) => !f.reached)
      .map(([id]) => id);
    failureReason = `flags not reached: ${missed.join(', ')}`;
  }

  const record: TrialRecord = {
    index,
    status: passed ? 'passed' : 'failed',
    passed,
    score,
    flags,
    tamper_detected: tamper,
    tamper_violations: violations.map((v) => `${v.change} ${v.path}`),
    failure_reason: failureReason,
    turns: turnLogs.length,
    elapsed_sec: round3(agentMs / 1000),
    harness_sec: round3(harnessMs / 1000),
    usage: sumUsage(turnLogs),
    final_answer: finalAnswer,
    ...callCounts(turnLogs),
    started_at: startedAt,
    artifacts,
    artifacts_dir: artifacts.length > 0 && opts.artifacts !== undefined ? opts.artifacts.relative : null,
    turn_logs: turnLogs,
  };
  emit({ type: 'trial_end', trial: index, status: record.status, passed, score, turns: record.turns });
  return record;
}
