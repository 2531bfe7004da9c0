/**
 * The record of one trial as the agent loop writes it. Field names are snake_case because these
 * objects are written to the results files as they are (the published contract); src/results/schema.ts
 * parses them back.
 */

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** Where a tool call came from: the server's structured tool_calls, or parsed out of the reply text. */
export type ToolCallSource = 'native' | 'text';

/** Why a tool call was not executed. */
export type InvalidCallReason = 'unknown_tool' | 'bad_arguments' | 'missing_argument';

export interface ToolCallLog {
  name: string;
  /** Parsed arguments; null when they were not a JSON object. */
  arguments: Record<string, unknown> | null;
  raw_arguments: string;
  source: ToolCallSource;
  /** Set when the call was refused without running. */
  invalid: InvalidCallReason | null;
  /** Shell directory the call ran in (relative paths resolve against it). */
  cwd: string;
  /** null when no exit code exists (refused call, or killed from the host). */
  exit_code: number | null;
  stdout: string;
  stderr: string;
  /** True when stdout/stderr (as stored here or as shown to the model) were cut. */
  truncated: boolean;
  timed_out: boolean;
  elapsed_ms: number;
  /**
   * What the command really ran, from the sandbox's process trace (execute_command only; schema 2.1).
   * Absent when the call was not traced (a refused call, a file tool, tracing off, an older file).
   */
  processes?: ProcessLog[];
  /** The trace hit its size cap: later processes are missing. */
  trace_truncated?: boolean;
  /** Long strings in `arguments` / `raw_arguments` were cut for the log (schema 2.2); the call ran with them whole. */
  arguments_truncated?: true;
}

/** One program a process ran (one successful exec). Paths are absolute. */
export interface ProgramLog {
  /** The file executed (a script, not its interpreter); null where the trace could not read it. */
  exe: string | null;
  argv: string[] | null;
  cwd: string | null;
  /**
   * The file under /workspace or /tmp whose content its standard input gave it from the start, to
   * it alone (`bash < x.sh`, `cat x.sh | bash`; see src/sandbox/trace/stdin.ts). Schema 2.2.
   */
  stdin_file?: string;
}

/** One process an agent command ran, as the kernel saw it: exe/argv/cwd/stdin_file are its last program. */
export interface ProcessLog extends ProgramLog {
  pid: number;
  /** The nearest recorded ancestor; null for the command's own shell. */
  parent_pid: number | null;
  /**
   * The programs it ran before its last one, in order (an exec chain: a script ending in `exec
   * python3 x.py`, `bash -c 'exec ...'`); absent when it ran one. Schema 2.2.
   */
  earlier_runs?: ProgramLog[];
  /** Both null when it was still running when the command returned. */
  exit_code: number | null;
  signal: string | null;
  /** Files under /workspace and /tmp it opened to read, and to write (create, truncate, append). */
  reads: string[];
  writes: string[];
  /** Paths under /workspace and /tmp it removed or renamed away, and renamed onto. */
  removed: string[];
  renamed_to: string[];
}

export interface TurnLog {
  turn: number;
  assistant_text: string;
  tool_calls: ToolCallLog[];
  /** Model latency plus tool time for this turn. */
  elapsed_ms: number;
  model_latency_ms: number;
  usage: TokenUsage | null;
  finish_reason: string | null;
  /** Retries the client made for this turn's reply. */
  retries: { attempt: number; reason: string; wait_ms: number }[];
  /** Set when the reply could not be understood (the model's fault); the loop went on. */
  malformed: string | null;
  /** Set when no reply came: the request failed (the infrastructure's fault, never a malformed reply; schema 2.2). */
  request_error?: string;
  /** `assistant_text` was cut for the log (schema 2.2). */
  text_truncated?: true;
}

export type TrialStatus = 'passed' | 'failed' | 'error';

/** What failed on the model server's side; src/models/request-errors.ts decides which failure is which. */
export type ModelServerFailureKind =
  | 'unreachable'
  | 'server_error'
  | 'model_not_found'
  | 'unauthorized'
  | 'rejected'
  | 'context_overflow';

/** Why an `error` trial was not measured (schema 2.2). */
export interface TrialError {
  /** `harness`: the sandbox or the harness itself failed; the others: the model server did. */
  kind: 'harness' | ModelServerFailureKind;
  /** context_overflow: the prompt's size and the server's context, in tokens, when the server said them. */
  prompt_tokens?: number;
  context_size?: number;
}

export interface FlagResult {
  reached: boolean;
  /** Turn it was reached on; null when reached only by ground truth after the run, or not reached. */
  turn: number | null;
  kind: 'process' | 'outcome';
  /** The flag states an absence, credited only when the trial reached an outcome (schema 2.1; absent before). */
  absence?: true;
  detail?: string;
}

/** One trial as stored in the results file. */
export interface TrialRecord {
  index: number;
  status: TrialStatus;
  passed: boolean;
  score: number;
  flags: Record<string, FlagResult>;
  tamper_detected: boolean;
  tamper_violations: string[];
  /** Why the trial did not pass cleanly (null when it passed and nothing went wrong). */
  failure_reason: string | null;
  /** Turns that produced a model reply (the final-answer turn included). */
  turns: number;
  /** Model and tool time of the agent loop, from the first request to the final answer. */
  elapsed_sec: number;
  /** Setup, snapshots and checks: harness time, kept apart so it never counts against the model. */
  harness_sec: number;
  usage: TokenUsage;
  final_answer: string | null;
  native_tool_calls: number;
  text_tool_calls: number;
  invalid_tool_call_count: number;
  missing_argument_count: number;
  malformed_replies: number;
  started_at: string;
  /** Files the agent produced inside the allowed writes, copied to `artifacts_dir` (relative to the results folder). */
  artifacts: ArtifactRecord[];
  artifacts_dir: string | null;
  turn_logs: TurnLog[];
  /** Set on `error` trials: not measured, not scored, never counted as the model's failure. */
  error?: TrialError;
}

export interface ArtifactRecord {
  /** Relative to /workspace. */
  path: string;
  size: number;
  sha256: string;
  /** false when the per-trial export cap was reached (listed, not copied). */
  exported: boolean;
}
