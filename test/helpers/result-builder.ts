/**
 * Crafted results files for report tests: say what each trial did (flags reached, tool calls, tamper,
 * time) and get a ResultFile whose summary fields agree with its trials.
 */

import type { FlagSummary, ResultFile } from '../../src/results/result-file.js';
import { withHash } from '../../src/results/store.js';
import type { FlagResult, ToolCallLog, TrialRecord, TrialStatus } from '../../src/results/trial.js';

export interface TrialSpec {
  /** Flag id -> reached. Ids starting with "p:" are process flags, the rest outcome flags. */
  flags?: Record<string, boolean>;
  /** valid: one executed call; invalid: only refused calls; none: no tool call at all. */
  calls?: 'valid' | 'invalid' | 'none';
  tamper?: boolean;
  elapsedSec?: number;
  /** 'error' makes a harness-error trial (no flags, no turns). */
  status?: Extract<TrialStatus, 'error'>;
}

/** Every flag reached. */
export const PASS: TrialSpec = { flags: { 'p:observed': true, fixed: true } };
/** The outcome without the process (e.g. a fix without first observing the failure). */
export const OUTCOME_ONLY: TrialSpec = { flags: { 'p:observed': false, fixed: true } };
/** Tools driven, outcome missed. */
export const MISS: TrialSpec = { flags: { 'p:observed': true, fixed: false } };
/** The agent loop never ran: no tool call, nothing reached. */
export const NO_TOOLS: TrialSpec = { calls: 'none', flags: { 'p:observed': false, fixed: false } };

function trial(spec: TrialSpec, index = 0): TrialRecord {
  const flags: Record<string, FlagResult> = {};
  for (const [id, reached] of Object.entries(
    spec.status === 'error' ? {} : (spec.flags ?? PASS.flags ?? {}),
  )) {
    flags[id] = { reached, turn: reached ? 1 : null, kind: id.startsWith('p:') ? 'process' : 'outcome' };
  }
  const tamper = spec.tamper ?? false;
  const values = Object.values(flags);
  const passed = spec.status !== 'error' && !tamper && values.every((f) => f.reached);
  const calls = spec.status === 'error' ? 'none' : (spec.calls ?? 'valid');
  return {
    index,
    status: spec.status ?? (passed ? 'passed' : 'failed'),
    passed,
    score: values.length === 0 ? 0 : values.filter((f) => f.reached).length / values.length,
    flags,
    tamper_detected: tamper,
    tamper_violations: tamper ? ['modified test_main.py'] : [],
    failure_reason: passed ? null : 'crafted',
    end_reason: spec.status === 'error' ? 'harness_error' : 'final_answer',
    turns: calls === 'none' ? 1 : 2,
    elapsed_sec: spec.elapsedSec ?? 10,
    harness_sec: 1,
    usage: { prompt_tokens: 100, completion_tokens: 10 },
    final_answer: 'done',
    native_tool_calls: calls === 'none' ? 0 : 1,
    text_tool_calls: 0,
    invalid_tool_call_count: calls === 'invalid' ? 1 : 0,
    missing_argument_count: 0,
    malformed_replies: 0,
    started_at: '2025-01-01T00:00:00.000Z',
    artifacts: [],
    artifacts_dir: null,
    turn_logs:
      calls === 'none'
        ? []
        : [
            {
              turn: 1,
              assistant_text: '',
              tool_calls: [toolCall(calls === 'invalid')],
              elapsed_ms: 100,
              model_latency_ms: 80,
              usage: null,
              finish_reason: 'tool_calls',
              retries: [],
              malformed: null,
            },
          ],
  };
}

export interface ResultSpec {
  task: string;
  model: string;
  trials: TrialSpec[];
  /** Defaults to the number of trials. */
  k?: number;
  /** ISO time; the newest run per (task, model) is the one a report uses. */
  startedAt?: string;
  status?: ResultFile['status'];
  nonComparable?: string[];
  /**
   * Run with --early-stop: the result is early-stopped when it completed with fewer trials than k (give
   * the trials up to the first failure, and a larger k).
   */
  earlyStop?: boolean;
}

export function result(spec: ResultSpec): ResultFile {
  const trials = spec.trials.map((t, i) => trial(t, i));
  const k = spec.k ?? trials.length;
  const startedAt = spec.startedAt ?? '2025-01-01T00:00:00.000Z';
  const skills: Record<string, FlagSummary> = {};
  for (const id of new Set(trials.flatMap((t) => Object.keys(t.flags)))) {
    const seen = trials.map((t) => t.flags[id]).filter((f) => f !== undefined);
    skills[id] = {
      kind: id.startsWith('p:') ? 'process' : 'outcome',
      reach_rate: trials.length === 0 ? 0 : seen.filter((f) => f.reached).length / trials.length,
      avg_turns: null,
    };
  }
  const reasons = spec.nonComparable ?? [];
  const status = spec.status ?? 'complete';
  const earlyStop = spec.earlyStop ?? false;
  return withHash({
    run_id: `${startedAt}-${spec.task}`,
    task_id: spec.task,
    task_version: '1',
    model: spec.model,
    status,
    k,
    trials_run: trials.length,
    early_stopped: earlyStop && status === 'complete' && trials.length < k,
    container_reuse: true,
    pass_all_k: trials.length === k && trials.every((t) => t.passed),
    score: trials.length === 0 ? 0 : trials.reduce((a, t) => a + t.score, 0) / trials.length,
    pass_hat_k: null,
    skills,
    invalid_tool_call_count: trials.reduce((a, t) => a + t.invalid_tool_call_count, 0),
    tamper_detected_count: trials.filter((t) => t.tamper_detected).length,
    native_tool_calls: trials.reduce((a, t) => a + t.native_tool_calls, 0),
    text_tool_calls: 0,
    usage: { prompt_tokens: 0, completion_tokens: 0 },
    elapsed_sec: trials.reduce((a, t) => a + t.elapsed_sec, 0),
    avg_turns: 2,
    comparable: reasons.length === 0,
    non_comparable_reasons: reasons,
    settings: {
      k,
      early_stop: earlyStop,
      max_turns: null,
      command_timeout_sec: 60,
      fresh_container: false,
      limits: { memory_mb: 2048, pids: 256, cpus: 2 },
      sampling: { temperature: 0 },
    },
    started_at: startedAt,
    updated_at: startedAt,
    error: null,
    environment: {
      sandbox_image: 'agent-bench-sandbox:test',
      image_id: null,
      image_source: null,
      sampling: { temperature: 0 },
      base_url: null,
      server: null,
      model: spec.model,
      harness_version: '0.1.0',
      node_version: 'v20',
      docker_version: null,
    },
    trials,
  });
}

function toolCall(invalid: boolean): ToolCallLog {
  return {
    name: invalid ? 'run_shell' : 'execute_command',
    arguments: invalid ? null : { command: 'pytest' },
    raw_arguments: invalid ? '{' : '{"command":"pytest"}',
    source: 'native',
    invalid: invalid ? 'unknown_tool' : null,
    cwd: '/workspace',
    exit_code: invalid ? null : 1,
    stdout: '',
    stderr: '',
    truncated: false,
    timed_out: false,
    elapsed_ms: 5,
  };
}
