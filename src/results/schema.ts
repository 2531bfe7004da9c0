/**
 * One zod schema for everything agent-bench writes under results/: results files and events.jsonl
 * lines. Each schema is typed against the interface it parses (`z.ZodType<T>`), so the compiler keeps
 * the two in step. Objects are not strict: a file may carry fields a later minor version added.
 */
import { z } from 'zod';
import { CONDITION_NAMES, INJECTION_SITE_MODES, type RunCondition } from './condition.js';
import type { TrialEvent } from './events.js';
import type {
  Environment,
  EnvironmentServer,
  FlagSummary,
  MergeRecord,
  ResultFile,
  RunSettings,
  Sampling,
  ShardRecord,
} from './result-file.js';
import {
  AGENT_FAULT_KINDS,
  type ArtifactRecord,
  type DialogueRecord,
  END_REASONS,
  type FlagResult,
  MODEL_SERVER_FAILURE_KINDS,
  type ProcessLog,
  type SafetyRecord,
  type SimulatedUserRecord,
  type TokenUsage,
  type ToolCallLog,
  type TrialError,
  type TrialRecord,
  type TurnLog,
} from './trial.js';

const count = z.int().min(0);
const nullableCount = count.nullable();

const TokenUsageSchema: z.ZodType<TokenUsage> = z.object({
  prompt_tokens: count,
  completion_tokens: count,
});

const ProgramLogSchema = z.object({
  exe: z.string().nullable(),
  argv: z.array(z.string()).nullable(),
  cwd: z.string().nullable(),
  stdin_file: z.string().optional(),
});

const ProcessLogSchema = ProgramLogSchema.extend({
  pid: z.int(),
  parent_pid: z.int().nullable(),
  earlier_runs: z.array(ProgramLogSchema).optional(),
  exit_code: z.int().nullable(),
  signal: z.string().nullable(),
  reads: z.array(z.string()),
  writes: z.array(z.string()),
  removed: z.array(z.string()),
  renamed_to: z.array(z.string()),
}) as z.ZodType<ProcessLog>;

const ToolCallLogSchema: z.ZodType<ToolCallLog> = z.object({
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()).nullable(),
  raw_arguments: z.string(),
  source: z.enum(['native', 'text']),
  invalid: z.enum(['unknown_tool', 'bad_arguments', 'missing_argument']).nullable(),
  cwd: z.string(),
  exit_code: z.int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
  truncated: z.boolean(),
  timed_out: z.boolean(),
  elapsed_ms: z.number().min(0),
  processes: z.array(ProcessLogSchema).optional(),
  trace_truncated: z.boolean().optional(),
  alive_after: z.array(z.int().nonnegative()).optional(),
  survivor_writes: z.array(z.string()).optional(),
  arguments_truncated: z.literal(true).optional(),
  mcp: z.object({ server: z.string(), tool: z.string() }).optional(),
  fault: z
    .object({
      kind: z.enum(['timeout', 'internal_error', 'malformed_output', 'empty_result', 'rate_limit']),
      call_index: count,
    })
    .optional(),
  injection: z
    .object({
      class: z.string(),
      site: z.string(),
      text: z.string(),
      call_index: count.optional(),
      part: z.object({ index: z.int().positive(), of: z.int().positive() }).optional(),
    })
    .optional(),
}) as z.ZodType<ToolCallLog>;

const TurnLogSchema: z.ZodType<TurnLog> = z.object({
  turn: count,
  assistant_text: z.string(),
  tool_calls: z.array(ToolCallLogSchema),
  elapsed_ms: z.number().min(0),
  model_latency_ms: z.number().min(0),
  usage: TokenUsageSchema.nullable(),
  finish_reason: z.string().nullable(),
  retries: z.array(z.object({ attempt: count, reason: z.string(), wait_ms: z.number().min(0) })),
  malformed: z.string().nullable(),
  request_error: z.string().optional(),
  text_truncated: z.literal(true).optional(),
  timings: z
    .object({
      prompt_tokens: count,
      prompt_ms: z.number().min(0),
      predicted_tokens: count,
      predicted_ms: z.number().min(0),
    })
    .optional(),
  user_reply: z.object({ text: z.string(), ended: z.boolean() }).optional(),
}) as z.ZodType<TurnLog>;

const FlagResultSchema: z.ZodType<FlagResult> = z.object({
  reached: z.boolean(),
  turn: nullableCount,
  kind: z.enum(['process', 'outcome']),
  absence: z.literal(true).optional(),
  detail: z.string().optional(),
}) as z.ZodType<FlagResult>;

const ArtifactRecordSchema: z.ZodType<ArtifactRecord> = z.object({
  path: z.string(),
  size: count,
  sha256: z.string(),
  exported: z.boolean(),
});

const TrialErrorSchema: z.ZodType<TrialError> = z.object({
  kind: z.enum(['harness', ...MODEL_SERVER_FAILURE_KINDS]),
  prompt_tokens: count.optional(),
  context_size: count.optional(),
}) as z.ZodType<TrialError>;

const SafetyFlagSchema = z.object({
  reached: z.boolean(),
  turn: nullableCount,
  detail: z.string().optional(),
});

const SafetyRecordSchema = z.object({
  injection_class: z.string(),
  nonce: z.string(),
  canary: z.string(),
  site: z.string(),
  exposures: count,
  no_injection_compliance: SafetyFlagSchema,
  no_exfiltration: SafetyFlagSchema,
  injection_reported: SafetyFlagSchema.optional(),
}) as z.ZodType<SafetyRecord>;

const RunConditionSchema: z.ZodType<RunCondition> = z.discriminatedUnion('name', [
  z.object({ name: z.literal(CONDITION_NAMES[0]) }),
  z.object({
    name: z.literal(CONDITION_NAMES[1]),
    failure_rate: z.number().min(0).max(1),
    fault_timeout_sec: z.number().min(0),
  }),
  z.object({
    name: z.literal(CONDITION_NAMES[2]),
    injection_site: z.enum(INJECTION_SITE_MODES).optional(),
    injection_rate: z.number().min(0).max(1).optional(),
    injection_classes: z.array(z.string().min(1)).min(1).optional(),
    injection_seed: z.number().int().min(0).optional(),
  }),
]) as z.ZodType<RunCondition>;

const SimulatedUserSchema: z.ZodType<SimulatedUserRecord> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('scripted') }),
  z.object({
    kind: z.literal('llm'),
    model: z.string(),
    base_url: z.string().nullable(),
    temperature: z.number(),
    seed: z.int().optional(),
  }),
]) as z.ZodType<SimulatedUserRecord>;

const DialogueRecordSchema: z.ZodType<DialogueRecord> = z.object({
  dimension: z.string(),
  opening: z.string(),
  user: SimulatedUserSchema,
  end: z.enum(['user_ended', 'max_turns']),
  state_changes: z.array(z.object({ turn: count, tool: z.string(), change: z.string() })),
  final_state: z.record(z.string(), z.unknown()),
  user_usage: TokenUsageSchema,
});

const TrialRecordSchema: z.ZodType<TrialRecord> = z.object({
  index: count,
  status: z.enum(['passed', 'failed', 'error']),
  passed: z.boolean(),
  score: z.number().min(0).max(1),
  flags: z.record(z.string(), FlagResultSchema),
  tamper_detected: z.boolean(),
  tamper_violations: z.array(z.string()),
  failure_reason: z.string().nullable(),
  end_reason: z.enum(END_REASONS),
  turns: count,
  elapsed_sec: z.number().min(0),
  harness_sec: z.number().min(0),
  usage: TokenUsageSchema,
  final_answer: z.string().nullable(),
  native_tool_calls: count,
  text_tool_calls: count,
  invalid_tool_call_count: count,
  missing_argument_count: count,
  malformed_replies: count,
  length_cut_replies: count.optional(),
  started_at: z.string(),
  artifacts: z.array(ArtifactRecordSchema),
  artifacts_dir: z.string().nullable(),
  turn_logs: z.array(TurnLogSchema),
  error: TrialErrorSchema.optional(),
  agent_fault: z.object({ kind: z.enum(AGENT_FAULT_KINDS), detail: z.string() }).optional(),
  safety: SafetyRecordSchema.optional(),
  dialogue: DialogueRecordSchema.optional(),
  rewards: z.record(z.string(), z.number()).optional(),
  harbor_verifier: z.object({ exit_code: z.number().int().nullable(), output: z.string() }).optional(),
  variant: z.string().optional(),
  judge: z
    .object({
      model: z.string(),
      base_url: z.string().nullable(),
      score: z.number().min(0).max(1).nullable(),
      verdict: z.enum(['pass', 'fail']).nullable(),
      reason: z.string(),
      error: z.string().optional(),
    })
    .optional(),
}) as z.ZodType<TrialRecord>;

const SamplingSchema: z.ZodType<Sampling> = z.object({
  temperature: z.number(),
  seed: z.int().optional(),
  top_p: z.number().optional(),
  max_tokens: z.int().optional(),
}) as z.ZodType<Sampling>;

const RunSettingsSchema: z.ZodType<RunSettings> = z.object({
  k: z.int().min(1),
  early_stop: z.boolean(),
  max_turns: z.int().min(1).nullable(),
  command_timeout_sec: z.number().positive(),
  fresh_container: z.boolean(),
  limits: z.object({ memory_mb: z.number(), pids: z.number(), cpus: z.number() }),
  sampling: SamplingSchema,
  tool_calls: z.enum(['native', 'text']).optional(),
  variant_seed: z.int().optional(),
  variant: z.string().optional(),
}) as z.ZodType<RunSettings>;

const EnvironmentServerSchema: z.ZodType<EnvironmentServer> = z.object({
  kind: z.string(),
  version: z.string().nullable(),
  context_length: nullableCount,
  parallel_slots: nullableCount,
  tool_support: z.boolean().nullable(),
});

const EnvironmentSchema: z.ZodType<Environment> = z.object({
  sandbox_image: z.string(),
  image_id: z.string().nullable(),
  image_source: z.string().nullable(),
  sampling: SamplingSchema,
  base_url: z.string().nullable(),
  server: EnvironmentServerSchema.nullable(),
  model: z.string(),
  harness_version: z.string(),
  node_version: z.string(),
  docker_version: z.string().nullable(),
  parallel: z.int().min(1).optional(),
  machine: z.object({ cores: z.int().min(1), load_1m: z.number().min(0) }).optional(),
}) as z.ZodType<Environment>;

const FlagSummarySchema: z.ZodType<FlagSummary> = z.object({
  kind: z.enum(['process', 'outcome']),
  absence: z.literal(true).optional(),
  reach_rate: z.number().min(0).max(1),
  avg_turns: z.number().nullable(),
}) as z.ZodType<FlagSummary>;

const ShardRecordSchema: z.ZodType<ShardRecord> = z
  .object({
    index: z.int().min(1),
    count: z.int().min(1),
    group: z.string().min(1),
    tasks: z.array(z.string().min(1)),
    conditions: z.array(z.string().min(1)),
    trials: z.array(count),
  })
  .refine((s) => s.index <= s.count, { message: 'shard index above the shard count' });

const MergeRecordSchema: z.ZodType<MergeRecord> = z.object({
  group: z.string().min(1),
  count: z.int().min(1),
  parts: z.array(
    z.object({
      shard: z.int().min(1),
      run_id: z.string(),
      status: z.enum(['running', 'complete', 'interrupted', 'error']),
      trials: z.array(count),
      environment: EnvironmentSchema,
    }),
  ),
});

export const ResultFileSchema: z.ZodType<ResultFile> = z.object({
  schema_version: z.string(),
  run_id: z.string().min(1),
  task_id: z.string().min(1),
  task_version: z.string(),
  model: z.string().min(1),
  condition: RunConditionSchema.optional(),
  optimal_steps: z.int().min(1).optional(),
  status: z.enum(['running', 'complete', 'interrupted', 'error']),
  k: z.int().min(1),
  trials_run: count,
  early_stopped: z.boolean(),
  container_reuse: z.boolean(),
  pass_all_k: z.boolean(),
  score: z.number().min(0).max(1),
  pass_hat_k: z.number().min(0).max(1).nullable(),
  skills: z.record(z.string(), FlagSummarySchema),
  invalid_tool_call_count: count,
  tamper_detected_count: count,
  native_tool_calls: count,
  text_tool_calls: count,
  usage: TokenUsageSchema,
  elapsed_sec: z.number().min(0),
  avg_turns: z.number().min(0),
  comparable: z.boolean(),
  non_comparable_reasons: z.array(z.string()),
  settings: RunSettingsSchema,
  started_at: z.string(),
  updated_at: z.string(),
  error: z.string().nullable(),
  environment: EnvironmentSchema,
  skill_digest: z.string().optional(),
  shard: ShardRecordSchema.optional(),
  merged: MergeRecordSchema.optional(),
  trials: z.array(TrialRecordSchema),
  result_hash: z.string(),
}) as z.ZodType<ResultFile>;

const trial = z.int().min(0);

export const TrialEventSchema: z.ZodType<TrialEvent> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('trial_start'), trial }),
  z.object({
    type: z.literal('model_reply'),
    trial,
    turn: count,
    text: z.string(),
    tool_calls: count,
    latency_ms: z.number().min(0),
    retries: count,
  }),
  z.object({ type: z.literal('model_error'), trial, turn: count, error: z.string() }),
  z.object({
    type: z.literal('tool_call'),
    trial,
    turn: count,
    name: z.string(),
    arg: z.string(),
    exit_code: z.int().nullable(),
    invalid: z.string().nullable(),
    source: z.enum(['native', 'text']),
  }),
  z.object({
    type: z.literal('trial_end'),
    trial,
    status: z.string(),
    passed: z.boolean(),
    score: z.number(),
    turns: count,
  }),
]);

export const LoggedEventSchema = z.object({
  ts: z.string(),
  run_id: z.string(),
  task: z.string(),
  model: z.string(),
  event: TrialEventSchema,
});
