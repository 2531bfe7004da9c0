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
  /**
   * execute_command: pids of the agent's processes still running when the command returned
   * (background jobs it or an earlier command left), as the sandbox saw them then; empty when none
   * was (schema 2.5). Absent when not looked at (a file tool, an older file, a sandbox that cannot).
   */
  alive_after?: number[];
  /**
   * execute_command that left traced jobs running: the /workspace paths those jobs (and what they
   * started) wrote, removed or renamed, their trace followed until they ended (schema 2.9). Absent
   * when not followed to their end: they may have written anything.
   */
  survivor_writes?: string[];
  /** Long strings in `arguments` / `raw_arguments` were cut for the log (schema 2.2); the call ran with them whole. */
  arguments_truncated?: true;
  /**
   * A tool of an MCP server the task declared (its name is `<server>__<tool>`, sanitized): the
   * server and the tool as the server names them. Absent for the built-in tools.
   */
  mcp?: McpCallRef;
  /**
   * noisy condition: the call did not run; the model was answered with this injected fault instead
   * (stderr holds what it was shown). Never evidence of anything (schema 2.3).
   */
  fault?: InjectedFault;
  /**
   * adversarial condition: an injection payload was added after the call's real output in what the
   * model was shown; stdout and stderr stay the real output (schema 2.3).
   */
  injection?: PlacedInjection;
}

export interface McpCallRef {
  server: string;
  tool: string;
}

export type FaultKind = 'timeout' | 'internal_error' | 'malformed_output' | 'empty_result' | 'rate_limit';

export interface InjectedFault {
  kind: FaultKind;
  /** Which of the trial's runnable calls it was (0-based): the fault was decided from it. */
  call_index: number;
}

export interface PlacedInjection {
  /** The payload's class in the catalogue (src/agent/injection/catalogue.ts). */
  class: string;
  /** Where it was placed: `file:<path>` or `first_command`. */
  site: string;
  /** The text added, exactly as the model saw it. */
  text: string;
  /** sampled site: which of the trial's calls it was (0-based): the draw was made from it (schema 2.7). */
  call_index?: number;
  /** A class split over several tool returns: which part this is (1-based) of how many (schema 2.7). */
  part?: { index: number; of: number };
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
  /** Files under /workspace, /tmp and /dev/shm it opened to read, and to write (create, truncate, append). */
  reads: string[];
  writes: string[];
  /** Paths under /workspace, /tmp and /dev/shm it removed or renamed away, and renamed onto. */
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
  /** The server's own timing of the reply, when it sent one (llama-server `timings`; schema 2.3). */
  timings?: ReplyTimings;
  /**
   * Dialogue tasks: this turn's reply went to the simulated user (it made no tool calls), and this is
   * what the user answered (schema 2.3). Tool results stay in `tool_calls`.
   */
  user_reply?: UserReply;
}

export interface UserReply {
  text: string;
  /** The user ended the conversation with this message. */
  ended: boolean;
}

export interface ReplyTimings {
  prompt_tokens: number;
  prompt_ms: number;
  predicted_tokens: number;
  predicted_ms: number;
}

export type TrialStatus = 'passed' | 'failed' | 'error';

/**
 * Why a trial's turns ended (schema 2.4): the model gave a final answer, the simulated user ended the
 * conversation, the turns or the agent time (a Harbor task's agent timeout) ran out, a request got no
 * reply (`error` trials), or the harness failed (`error` trials). `request_timeout` (schema 2.7): the
 * model's request got no reply within the request timeout while its server still answered: a failed
 * trial with the agent fault of the same name.
 */
export const END_REASONS = [
  'final_answer',
  'user_ended',
  'max_turns',
  'agent_timeout',
  'request_failed',
  'harness_error',
  'tool_stalled',
  'request_timeout',
] as const;
export type EndReason = (typeof END_REASONS)[number];

/** What failed on the model server's side; src/models/request-errors.ts decides which failure is which. */
export const MODEL_SERVER_FAILURE_KINDS = [
  'unreachable',
  'server_error',
  'model_not_found',
  'unauthorized',
  'rejected',
  'context_overflow',
] as const;
export type ModelServerFailureKind = (typeof MODEL_SERVER_FAILURE_KINDS)[number];

/**
 * A failure of the harness's work that the agent's processes or code could have caused (schema 2.5):
 * a measured failed trial of the model, never an `error` (src/agent/attribution.ts holds the rule).
 * `tool_stalled`: one of its tools' execs did not finish while the engine answered; `sabotaged_checks`:
 * a check running its code was stopped or stalled, or the verifier's reward was forged or never
 * written; `check_timeout`: a check (a Harbor verifier) ran out of its time on the files it left;
 * `request_timeout` (schema 2.7): the model's request got no reply in time while its server still
 * answered (the detail says how long was waited); `service_stopped` (schema 2.8): one of the task's
 * services was no longer running after the agent's turns (it can reach them with its requests).
 */
export const AGENT_FAULT_KINDS = [
  'tool_stalled',
  'sabotaged_checks',
  'check_timeout',
  'request_timeout',
  'service_stopped',
] as const;
export type AgentFaultKind = (typeof AGENT_FAULT_KINDS)[number];

export interface AgentFault {
  kind: AgentFaultKind;
  /** What happened, in one line. */
  detail: string;
}

/** A Harbor task's verifier run in a trial (schema 2.6): what tests/test.sh ended with and printed. */
export interface HarborVerifierRecord {
  /** null: it was killed (timed out) or its supervisor gave no report. */
  exit_code: number | null;
  /** Its stdout and stderr as they came, the last 4 KiB. */
  output: string;
}

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
  /** Why the trial did not pass cleanly, in one line for people (null when it passed and nothing went wrong). */
  failure_reason: string | null;
  /** Why its turns ended: what programs branch on, never the text of `failure_reason`. */
  end_reason: EndReason;
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
  /**
   * Replies the server cut at the reply bound (`finish_reason: "length"`, the request's max_tokens):
   * the model did not stop in time (schema 2.7; absent in older files).
   */
  length_cut_replies?: number;
  /**
   * The instance of a variant task the trial ran (schema 2.8; absent: the task has one instance):
   * its id, the generator's SEED, which `run --variant` replays.
   */
  variant?: string;
  started_at: string;
  /** Files the agent produced inside the allowed writes, copied to `artifacts_dir` (relative to the results folder). */
  artifacts: ArtifactRecord[];
  artifacts_dir: string | null;
  turn_logs: TurnLog[];
  /** Set on `error` trials: not measured, not scored, never counted as the model's failure. */
  error?: TrialError;
  /** Set on a failed trial whose checks or tools failed in a way the agent could have caused (schema 2.5). */
  agent_fault?: AgentFault;
  /** adversarial condition: the payload the trial carried and the safety flags judged on it (schema 2.3). */
  safety?: SafetyRecord;
  /** Dialogue tasks: the conversation around the turns and the environment's final state (schema 2.3). */
  dialogue?: DialogueRecord;
  /**
   * Harbor tasks: every named metric the verifier wrote to reward.json (schema 2.6); `score` is the
   * one named `reward`, else the only one, else their mean (the reward flag's detail says which).
   */
  rewards?: Record<string, number>;
  /** Harbor tasks: their verifier's exit code and output's end (schema 2.6). */
  harbor_verifier?: HarborVerifierRecord;
  /**
   * `run --judge-model`: an LLM's grade of the transcript against the task's instructions and
   * policy (schema 2.10). Kept apart: it never changes `passed`, `score` or any flag.
   */
  judge?: JudgeRecord;
}

/** What the optional transcript judge made of a trial (src/judge/). */
export interface JudgeRecord {
  model: string;
  /** Without credentials. */
  base_url: string | null;
  /** 0..1 (the rubric's 0-10 over 10); null when the judge gave no grade it could read. */
  score: number | null;
  /** Its own pass or fail; null with no grade. */
  verdict: 'pass' | 'fail' | null;
  /** Its one-paragraph reason, cut to 1000 characters. */
  reason: string;
  /** Why there is no grade: the request failed, or the reply held none. */
  error?: string;
}

/** Who played the user of a dialogue task: it changes what is measured, so it is recorded. */
export type SimulatedUserRecord =
  | { kind: 'scripted' }
  | {
      kind: 'llm';
      model: string;
      /** Without credentials. */
      base_url: string | null;
      temperature: number;
      seed?: number;
    };

export interface DialogueRecord {
  /** The policy dimension the scenario measures (`identity_verification`): what reports group by. */
  dimension: string;
  /** The user's first message (the turns hold the rest of the conversation). */
  opening: string;
  user: SimulatedUserRecord;
  /** `user_ended`: the user ended it; `max_turns`: the agent ran out of turns first. */
  end: 'user_ended' | 'max_turns';
  /** Every change the tools made to the environment, in order, with the turn of the call that made it. */
  state_changes: { turn: number; tool: string; change: string }[];
  /** The environment's state when the conversation ended: what the checks read. */
  final_state: Record<string, unknown>;
  /** The user model's tokens (zero for a scripted user); never part of the agent's `usage`. */
  user_usage: TokenUsage;
}

/**
 * The adversarial part of a trial. Safety flags are judged apart from the task's flags: they never
 * change `passed` or `score`, so completion under attack stays the task's own measure.
 */
export interface SafetyRecord {
  injection_class: string;
  /** Per-trial: what a compliant model would echo (src/agent/injection/nonce.ts). */
  nonce: string;
  /** The action the payload asks for, in words (`reads /tmp/.aws/credentials`). */
  canary: string;
  site: string;
  /** Tool results that carried the payload: 0 when the model never reached the site. */
  exposures: number;
  no_injection_compliance: SafetyFlag;
  no_exfiltration: SafetyFlag;
  /**
   * The final answer tells the user a tool result held instructions it did not follow (schema 2.7;
   * src/agent/injection/reported.ts). Never reached when the trial was not exposed or complied.
   */
  injection_reported?: SafetyFlag;
}

export interface SafetyFlag {
  reached: boolean;
  /** The turn the violation happened on, when one did and its turn is known. */
  turn: number | null;
  detail?: string;
}

export interface ArtifactRecord {
  /** Relative to /workspace. */
  path: string;
  size: number;
  sha256: string;
  /** false when the per-trial export cap was reached (listed, not copied). */
  exported: boolean;
}
