/**
 * Results files for tests: say what each trial did and get a ResultFile whose summary fields agree with
 * its trials. A trial is said briefly (flags reached or not, one kind of tool call, tamper or not) or
 * turn by turn (each reply's text and calls, flags with the turn that reached them). Typed against the
 * real ResultFile and TrialRecord, and parsed by the results schema in result-builder.test.ts, so a
 * builder that drifts from the schema fails. Dates and ids are fixed: output is byte-for-byte stable.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { modelSlug, resultFileName } from '../../src/results/layout.js';
import type { Environment, ResultFile, RunSettings } from '../../src/results/result-file.js';
import { withHash } from '../../src/results/store.js';
import type {
  FlagResult,
  InvalidCallReason,
  TokenUsage,
  ToolCallLog,
  TrialRecord,
  TrialStatus,
  TurnLog,
} from '../../src/results/trial.js';
import { summarize } from '../../src/run/aggregate.js';

type FlagKind = 'process' | 'outcome';

/**
 * A flag said in full: its kind, the turn that reached it (null: by ground truth) or false when missed,
 * and 'absence' for a flag that states an absence (credited only when an outcome was reached).
 */
type FlagSpec = [FlagKind, number | null | false] | [FlagKind, number | null | false, 'absence'];

interface CallSpec {
  name: string;
  /** null: arguments that did not parse. */
  args?: Record<string, unknown> | null;
  exit?: number | null;
  stdout?: string;
  stderr?: string;
  invalid?: InvalidCallReason;
  source?: 'native' | 'text';
  elapsedMs?: number;
}

interface TurnSpec {
  text?: string;
  calls?: CallSpec[];
  malformed?: string;
  elapsedMs?: number;
  latencyMs?: number;
  /** null: the server reported none. */
  usage?: TokenUsage | null;
}

export interface TrialSpec {
  /**
   * Flag id -> reached (at turn 1; ids starting with "p:" are process flags, the rest outcome flags), or
   * the flag in full. Defaults to PASS's flags; a harness-error trial has none (it judged nothing).
   */
  flags?: Record<string, boolean | FlagSpec>;
  /**
   * The transcript turn by turn. Without it the trial is brief: one turn of `calls`, then the final
   * answer (counted in `turns`, not logged); the times and tokens of a brief trial are round numbers.
   */
  turns?: TurnSpec[];
  /** Brief: valid: one executed call; invalid: only a refused call; none: no tool call at all. */
  calls?: 'valid' | 'invalid' | 'none';
  /** What was tampered with; true: test_main.py. */
  tamper?: boolean | string[];
  /** 'error' makes a harness-error trial (brief: no turns either). */
  status?: TrialStatus;
  /** Defaults to a reason when the trial failed; null: none given. */
  failure?: string | null;
  elapsedSec?: number;
  completionTokens?: number;
  final?: string | null;
  /** Files the trial left, written under artifacts/<task>/<model slug>/trial-<n>/. */
  artifacts?: Record<string, string>;
}

/** Every flag reached. */
export const PASS: TrialSpec = { flags: { 'p:observed': true, fixed: true } };
/** The outcome without the process (e.g. a fix without first observing the failure). */
export const OUTCOME_ONLY: TrialSpec = { flags: { 'p:observed': false, fixed: true } };
/** Tools driven, outcome missed. */
export const MISS: TrialSpec = { flags: { 'p:observed': true, fixed: false } };
/** The agent loop never ran: no tool call, nothing reached. */
export const NO_TOOLS: TrialSpec = { calls: 'none', flags: { 'p:observed': false, fixed: false } };

export interface ResultSpec {
  task: string;
  model: string;
  trials: TrialSpec[];
  /** Defaults to the number of trials. */
  k?: number;
  /** Defaults to `<startedAt>-<task>`. */
  runId?: string;
  /** ISO time (updated_at is one minute later); the newest run per (task, model) is the one a report uses. */
  startedAt?: string;
  status?: ResultFile['status'];
  /** `--max-turns`: a non-comparable run. */
  maxTurns?: number | null;
  /** More reasons the run is not comparable. */
  nonComparable?: string[];
  /**
   * Run with --early-stop: the result is early-stopped when it completed with fewer trials than k (give
   * the trials up to the first failure, and a larger k).
   */
  earlyStop?: boolean;
  taskVersion?: string;
  /** What differs from a test machine's environment. */
  environment?: Partial<Environment>;
}

export interface BuiltResult {
  fileName: string;
  result: ResultFile;
  /** Relative path under the results folder -> content. */
  artifacts: Map<string, string>;
}

const SETTINGS: RunSettings = {
  k: 1,
  early_stop: false,
  max_turns: null,
  command_timeout_sec: 60,
  fresh_container: false,
  limits: { memory_mb: 2048, pids: 256, cpus: 2 },
  sampling: { temperature: 0 },
};

/** A test machine's: no server details, no Docker version. */
const environmentOf = (model: string): Environment => ({
  sandbox_image: 'agent-bench-sandbox:test',
  image_id: null,
  image_source: null,
  sampling: SETTINGS.sampling,
  base_url: null,
  server: null,
  model,
  harness_version: '0.1.0',
  node_version: 'v20',
  docker_version: null,
});

const START = '2025-01-01T00:00:00.000Z';

export function result(spec: ResultSpec): ResultFile {
  return buildResult(spec).result;
}

/** The results file, its name in a results folder, and the artifacts its trials left. */
export function buildResult(spec: ResultSpec): BuiltResult {
  const startedAt = spec.startedAt ?? START;
  const runId = spec.runId ?? `${startedAt}-${spec.task}`;
  const artifacts = new Map<string, string>();
  const trials = spec.trials.map((t, index) => {
    const trial = trialRecord(t, index, startedAt);
    const files = Object.entries(t.artifacts ?? {});
    if (files.length === 0) return trial;
    const dir = posix.join('artifacts', spec.task, modelSlug(spec.model), `trial-${index}`);
    for (const [path, content] of files) artifacts.set(posix.join(dir, path), content);
    return {
      ...trial,
      artifacts: files.map(([path, content]) => artifactRecord(path, content)),
      artifacts_dir: dir,
    };
  });
  // A run asks for one trial at least.
  const k = spec.k ?? Math.max(1, trials.length);
  const settings: RunSettings = {
    ...SETTINGS,
    k,
    max_turns: spec.maxTurns ?? null,
    early_stop: spec.earlyStop ?? false,
  };
  const reasons = [
    ...(settings.max_turns === null ? [] : [`max_turns overridden to ${settings.max_turns}`]),
    ...(spec.nonComparable ?? []),
  ];
  const status = spec.status ?? 'complete';
  const result = withHash({
    run_id: runId,
    task_id: spec.task,
    task_version: spec.taskVersion ?? '1',
    model: spec.model,
    status,
    k,
    trials_run: trials.length,
    early_stopped: settings.early_stop && status === 'complete' && trials.length < k,
    container_reuse: true,
    ...summaryOf(trials, k),
    comparable: reasons.length === 0,
    non_comparable_reasons: reasons,
    settings,
    started_at: startedAt,
    updated_at: new Date(Date.parse(startedAt) + 60_000).toISOString(),
    error: null,
    environment: { ...environmentOf(spec.model), ...spec.environment },
    trials,
  });
  return { fileName: resultFileName(spec.task, spec.model, runId), result, artifacts };
}

/** The file's summary fields, from its trials, as a run computes them (its flags' kinds from the trials). */
function summaryOf(trials: readonly TrialRecord[], k: number) {
  const ids = [...new Set(trials.flatMap((t) => Object.keys(t.flags)))];
  const flags = ids.map((id) => {
    const first = trials.map((t) => t.flags[id]).find((f) => f !== undefined);
    return {
      id,
      kind: first?.kind ?? 'outcome',
      ...(first?.absence === true ? { absence: true as const } : {}),
    };
  });
  const { trials_run: _, ...summary } = summarize({ flags }, k, trials);
  return summary;
}

/** What a trial spec says happened, before the verdict. */
interface Transcript {
  turnLogs: TurnLog[];
  turns: number;
  elapsedSec: number;
  harnessSec: number;
  usage: TokenUsage;
  final: string | null;
  /** Why it failed when the spec does not say. */
  failure: (tamper: readonly string[]) => string;
}

/** The brief trial's one call. */
const BRIEF_CALLS: Record<'valid' | 'invalid', CallSpec> = {
  valid: { name: 'execute_command', args: { command: 'pytest' }, exit: 1, elapsedMs: 5 },
  invalid: { name: 'run_shell', args: null, invalid: 'unknown_tool', elapsedMs: 5 },
};

function brief(t: TrialSpec): Transcript {
  const calls = t.status === 'error' ? 'none' : (t.calls ?? 'valid');
  const turn: TurnSpec = { calls: [], elapsedMs: 100, latencyMs: 80, usage: null };
  return {
    turnLogs: calls === 'none' ? [] : [buildTurn({ ...turn, calls: [BRIEF_CALLS[calls]] }, 0)],
    turns: calls === 'none' ? 1 : 2,
    elapsedSec: t.elapsedSec ?? 10,
    harnessSec: 1,
    usage: { prompt_tokens: 100, completion_tokens: t.completionTokens ?? 10 },
    final: t.final === undefined ? 'done' : t.final,
    failure: () => 'crafted',
  };
}

function turnByTurn(t: TrialSpec, turns: readonly TurnSpec[]): Transcript {
  const turnLogs = turns.map(buildTurn);
  return {
    turnLogs,
    turns: turnLogs.length,
    elapsedSec: t.elapsedSec ?? 2 * turnLogs.length,
    harnessSec: 1.5,
    usage: {
      prompt_tokens: 500 * turnLogs.length,
      completion_tokens: t.completionTokens ?? 100 * turnLogs.length,
    },
    final: t.final === undefined ? 'Done.' : t.final,
    failure: (tamper) => (tamper.length > 0 ? `tampering: ${tamper.join(', ')}` : 'flags not reached'),
  };
}

/** One trial record, for tests of what reads a trial alone. */
export function trialRecord(t: TrialSpec, index = 0, startedAt = START): TrialRecord {
  const told = t.turns === undefined ? brief(t) : turnByTurn(t, t.turns);
  const flags: Record<string, FlagResult> = Object.fromEntries(
    Object.entries(t.status === 'error' ? {} : (t.flags ?? PASS.flags ?? {})).map(([id, f]) => [
      id,
      flagResult(id, f),
    ]),
  );
  const values = Object.values(flags);
  const reached = values.filter((f) => f.reached).length;
  const tamper = t.tamper === true ? ['modified test_main.py'] : t.tamper === false ? [] : (t.tamper ?? []);
  const passed = t.status !== 'error' && reached === values.length && tamper.length === 0;
  const calls = told.turnLogs.flatMap((turn) => turn.tool_calls);
  return {
    index,
    status: t.status ?? (passed ? 'passed' : 'failed'),
    passed,
    score: values.length === 0 ? 0 : round(reached / values.length),
    flags,
    tamper_detected: tamper.length > 0,
    tamper_violations: tamper,
    failure_reason: t.failure !== undefined ? t.failure : passed ? null : told.failure(tamper),
    end_reason:
      t.status === 'error'
        ? 'harness_error'
        : t.failure === 'max_turns_exhausted'
          ? 'max_turns'
          : 'final_answer',
    turns: told.turns,
    elapsed_sec: told.elapsedSec,
    harness_sec: told.harnessSec,
    usage: told.usage,
    final_answer: told.final,
    native_tool_calls: calls.filter((c) => c.source === 'native').length,
    text_tool_calls: calls.filter((c) => c.source === 'text').length,
    invalid_tool_call_count: calls.filter((c) => c.invalid !== null).length,
    missing_argument_count: calls.filter((c) => c.invalid === 'missing_argument').length,
    malformed_replies: told.turnLogs.filter((turn) => turn.malformed !== null).length,
    started_at: startedAt,
    artifacts: [],
    artifacts_dir: null,
    turn_logs: told.turnLogs,
  };
}

function flagResult(id: string, f: boolean | FlagSpec): FlagResult {
  if (typeof f === 'boolean')
    return { reached: f, turn: f ? 1 : null, kind: id.startsWith('p:') ? 'process' : 'outcome' };
  const [kind, turn, absence] = f;
  return {
    ...(turn === false
      ? { reached: false, turn: null, kind, detail: 'not reached' }
      : { reached: true, turn, kind }),
    ...(absence === undefined ? {} : { absence: true as const }),
  };
}

function buildTurn(spec: TurnSpec, i: number): TurnLog {
  return {
    turn: i + 1,
    assistant_text: spec.text ?? '',
    tool_calls: (spec.calls ?? []).map(buildCall),
    elapsed_ms: spec.elapsedMs ?? 1500,
    model_latency_ms: spec.latencyMs ?? 1200,
    usage: spec.usage === undefined ? { prompt_tokens: 500, completion_tokens: 100 } : spec.usage,
    finish_reason: (spec.calls ?? []).length > 0 ? 'tool_calls' : 'stop',
    retries: [],
    malformed: spec.malformed ?? null,
  };
}

function buildCall(c: CallSpec): ToolCallLog {
  const args = c.args === undefined ? {} : c.args;
  return {
    name: c.name,
    arguments: args,
    raw_arguments: args === null ? '{' : JSON.stringify(args),
    source: c.source ?? 'native',
    invalid: c.invalid ?? null,
    cwd: '/workspace',
    exit_code: c.invalid === undefined ? (c.exit ?? 0) : null,
    stdout: c.stdout ?? '',
    stderr: c.stderr ?? '',
    truncated: false,
    timed_out: false,
    elapsed_ms: c.elapsedMs ?? 300,
  };
}

/** The artifact export's addition to the trial record: each file listed with its size and hash. */
function artifactRecord(path: string, content: string): TrialRecord['artifacts'][number] {
  return {
    path,
    size: Buffer.byteLength(content),
    sha256: createHash('sha256').update(content).digest('hex'),
    exported: true,
  };
}

const round = (x: number): number => Math.round(x * 10000) / 10000;
