/**
 * A trial's turns as a Harbor trajectory (ATIF, the Agent Trajectory Interchange Format of Harbor's
 * RFC 0001, version 1.4), so Harbor's viewer and trace tools read agent-bench runs. Each turn is one
 * agent step: the model's text, its tool calls, and what each call returned as the observation; a
 * dialogue task's user reply is a user step after it. Results files keep each call's stdout, stderr
 * and exit code, not the exact text the model was shown (capped, with injected faults), so an
 * observation is rebuilt from them and the step's `extra` says where a fault or injection was. The
 * prompts are not in a results file: the exporter passes them (a system step and a user step first)
 * when it can know them exactly, otherwise the trajectory starts at the first agent turn.
 */
import type { ResultFile } from '../results/result-file.js';
import type { ToolCallLog, TrialRecord, TurnLog } from '../results/trial.js';
import { UsageError } from '../util/errors.js';

const SCHEMA_VERSION = 'ATIF-v1.4';

interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: Record<string, unknown>;
}

interface AtifStep {
  step_id: number;
  /** ISO 8601 (derived: see stepTimes). */
  timestamp: string;
  source: 'agent' | 'user' | 'system';
  message: string;
  model_name?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: { source_call_id: string; content: string }[] };
  metrics?: { prompt_tokens: number; completion_tokens: number };
  extra?: Record<string, unknown>;
}

interface AtifTrajectory {
  schema_version: string;
  session_id: string;
  agent: { name: string; version: string; model_name: string };
  steps: AtifStep[];
  notes: string;
  final_metrics: {
    total_prompt_tokens: number;
    total_completion_tokens: number;
    total_steps: number;
    extra: Record<string, unknown>;
  };
}

/** What the model was shown before its first turn: the harness's system prompt and the task's. */
export interface TrialOpening {
  system: string;
  prompt: string;
}

export function trialTrajectory(
  result: ResultFile,
  trial: TrialRecord,
  opening: TrialOpening | null = null,
): AtifTrajectory {
  const steps: AtifStep[] = [];
  const times = stepTimes(trial);
  if (opening !== null) {
    steps.push({ step_id: 1, timestamp: times.start, source: 'system', message: opening.system });
    steps.push({ step_id: 2, timestamp: times.start, source: 'user', message: opening.prompt });
  }
  trial.turn_logs.forEach((turn, i) => {
    const at = times.turns[i] ?? { reply: times.start, end: times.start };
    steps.push(agentStep(steps.length + 1, at.reply, result.model, turn));
    if (turn.user_reply !== undefined)
      steps.push({
        step_id: steps.length + 1,
        timestamp: at.end,
        source: 'user',
        message: turn.user_reply.text,
      });
  });
  return {
    schema_version: SCHEMA_VERSION,
    // Trials are numbered from 1, as everywhere else the CLI shows them.
    session_id: `${result.run_id}/${result.task_id}/${trial.index + 1}`,
    agent: { name: 'agent-bench', version: result.environment.harness_version, model_name: result.model },
    steps,
    notes: `agent-bench task ${result.task_id} (version ${result.task_version}), trial ${trial.index + 1}: ${verdict(trial)}${opening === null ? '; the prompts are not known here, the trajectory starts at the first agent turn' : ''}; step timestamps are derived from the trial's start and its turns' durations`,
    final_metrics: {
      total_prompt_tokens: trial.usage.prompt_tokens,
      total_completion_tokens: trial.usage.completion_tokens,
      total_steps: steps.length,
      extra: {
        status: trial.status,
        passed: trial.passed,
        score: trial.score,
        flags: trial.flags,
        tamper_detected: trial.tamper_detected,
        failure_reason: trial.failure_reason,
        elapsed_sec: trial.elapsed_sec,
      },
    },
  };
}

function verdict(t: TrialRecord): string {
  if (t.status === 'error') return `not measured (${t.failure_reason ?? 'harness error'})`;
  return `${t.passed ? 'passed' : 'failed'}, score ${t.score}${t.failure_reason === null ? '' : ` (${t.failure_reason})`}`;
}

/**
 * When each step happened. A trial record keeps no wall-clock time per turn, only the trial's
 * start (`started_at`, before the sandbox's setup) and each turn's duration (`elapsed_ms`: the
 * model's reply, then its tool calls; `model_latency_ms` of it the reply). So a turn is taken to
 * start when the turns before it ended, counted from the trial's start: the setup and the
 * snapshots between turns are not in those durations, so each time is early by at most the
 * trial's `harness_sec`, and the order and the gaps between steps are exact. An agent step is
 * stamped when its reply arrived, a user's reply when the turn's tool calls were over.
 */
function stepTimes(trial: TrialRecord): { start: string; turns: { reply: string; end: string }[] } {
  const start = Date.parse(trial.started_at);
  if (Number.isNaN(start))
    throw new UsageError(`trial ${trial.index + 1}: started_at "${trial.started_at}" is not a date`);
  const iso = (ms: number): string => new Date(ms).toISOString();
  let at = start;
  const turns = trial.turn_logs.map((t) => {
    const reply = at + Math.min(t.model_latency_ms, t.elapsed_ms);
    at += t.elapsed_ms;
    return { reply: iso(reply), end: iso(at) };
  });
  return { start: iso(start), turns };
}

function agentStep(id: number, timestamp: string, model: string, turn: TurnLog): AtifStep {
  const calls = turn.tool_calls.map((c, i) => ({ call: c, id: `call_${turn.turn}_${i + 1}` }));
  const extra: Record<string, unknown> = {
    turn: turn.turn,
    elapsed_ms: turn.elapsed_ms,
    model_latency_ms: turn.model_latency_ms,
    finish_reason: turn.finish_reason,
  };
  if (turn.malformed !== null) extra.malformed = turn.malformed;
  if (turn.request_error !== undefined) extra.request_error = turn.request_error;
  const marked = calls.filter(({ call }) => call.fault !== undefined || call.injection !== undefined);
  if (marked.length > 0)
    extra.conditions = marked.map(({ call, id }) => ({
      tool_call_id: id,
      ...(call.fault === undefined ? {} : { fault: call.fault.kind }),
      ...(call.injection === undefined ? {} : { injection: call.injection.class }),
    }));
  return {
    step_id: id,
    timestamp,
    source: 'agent',
    message: turn.assistant_text,
    model_name: model,
    ...(calls.length === 0
      ? {}
      : {
          tool_calls: calls.map(({ call, id }) => ({
            tool_call_id: id,
            function_name: call.name,
            arguments: call.arguments ?? { raw_arguments: call.raw_arguments },
          })),
          observation: {
            results: calls.map(({ call, id }) => ({ source_call_id: id, content: observed(call) })),
          },
        }),
    ...(turn.usage === null
      ? {}
      : {
          metrics: {
            prompt_tokens: turn.usage.prompt_tokens,
            completion_tokens: turn.usage.completion_tokens,
          },
        }),
    extra,
  };
}

/** What a call returned, rebuilt from the log: its output, then its exit (or why it did not run). */
function observed(call: ToolCallLog): string {
  if (call.invalid !== null) return `not run: ${call.invalid}`;
  const parts = [call.stdout, call.stderr === '' ? '' : `[stderr]\n${call.stderr}`].filter((p) => p !== '');
  const end = call.timed_out
    ? '[timed out]'
    : call.exit_code === null
      ? '[no exit code]'
      : `[exit code ${call.exit_code}]`;
  return [...parts, end].join('\n');
}
