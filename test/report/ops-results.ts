/**
 * Crafted results for the operational-axes tests: per trial, whether it passed, its turns and calls,
 * faults, safety, tokens, time and server timings; a results file around them, hashed like a real one.
 */
import type { RunCondition } from '../../src/results/condition.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { withHash } from '../../src/results/store.js';
import type {
  EndReason,
  FaultKind,
  ReplyTimings,
  SafetyFlag,
  ToolCallLog,
  TrialRecord,
  TurnLog,
} from '../../src/results/trial.js';
import { passHatK } from '../../src/stats/estimators.js';
import { result } from '../helpers/result-builder.js';

export interface OpsTrial {
  passed: boolean;
  /** Tool calls, one turn each, each `name:arg`; a `!kind` suffix makes it a call answered with that fault. */
  calls?: string[];
  /** All the calls in one turn instead. */
  batched?: true;
  /** Why its turns ended (default final_answer). */
  end?: EndReason;
  /** Outcome flags reached or not, by id. */
  outcome?: Record<string, boolean>;
  safety?: {
    class: string;
    exposures: number;
    complied?: boolean;
    exfiltrated?: boolean;
    reported?: boolean;
  };
  tokens?: [number, number];
  sec?: number;
  timings?: ReplyTimings;
  latencyMs?: number;
  error?: true;
  /** The instance a variant task's trial ran (trials[].variant). */
  variant?: string;
}

export interface OpsSpec {
  task: string;
  model: string;
  condition?: RunCondition;
  k?: number;
  earlyStop?: boolean;
  optimalSteps?: number;
  /** `run --tool-calls` when not both. */
  toolCalls?: 'native' | 'text';
  startedAt?: string;
  trials: OpsTrial[];
}

export function opsResult(spec: OpsSpec): ResultFile {
  const base = result({
    task: spec.task,
    model: spec.model,
    trials: spec.trials.map(() => ({})),
    ...(spec.k === undefined ? {} : { k: spec.k }),
    ...(spec.earlyStop === undefined ? {} : { earlyStop: spec.earlyStop }),
    ...(spec.startedAt === undefined ? {} : { startedAt: spec.startedAt }),
  });
  const { result_hash: _, schema_version: __, ...rest } = base;
  const trials = spec.trials.map((t, i) => trialOf(t, i, base.trials[i] as TrialRecord));
  // The summary agrees with the trials, as a real file's does (agent-bench stats checks it).
  const measured = trials.filter((t) => t.status !== 'error');
  const passed = measured.filter((t) => t.passed).length;
  return withHash({
    ...rest,
    ...(spec.condition === undefined ? {} : { condition: spec.condition }),
    ...(spec.optimalSteps === undefined ? {} : { optimal_steps: spec.optimalSteps }),
    ...(spec.toolCalls === undefined ? {} : { settings: { ...rest.settings, tool_calls: spec.toolCalls } }),
    trials_run: measured.length,
    pass_all_k: measured.length === base.k && passed === base.k,
    pass_hat_k: passHatK(measured.length, passed, base.k),
    score: measured.length === 0 ? 0 : measured.reduce((a, t) => a + t.score, 0) / measured.length,
    trials,
  });
}

function trialOf(t: OpsTrial, index: number, base: TrialRecord): TrialRecord {
  const turn = (n: number, calls: ToolCallLog[]): TurnLog => ({
    turn: n,
    assistant_text: '',
    tool_calls: calls,
    elapsed_ms: 0,
    model_latency_ms: 0,
    usage: null,
    finish_reason: null,
    retries: [],
    malformed: null,
  });
  const calls = (t.calls ?? []).map(callOf);
  const steps = t.batched ? [turn(1, calls)] : calls.map((c, i) => turn(i + 1, [c]));
  // The final answer carries the reply's latency and the server's timings.
  const final: TurnLog = {
    ...turn(steps.length + 1, []),
    model_latency_ms: t.latencyMs ?? 0,
    ...(t.timings === undefined ? {} : { timings: t.timings }),
  };
  const flag = (bad: boolean | undefined): SafetyFlag => ({ reached: bad !== true, turn: null });
  return {
    ...base,
    index,
    status: t.error ? 'error' : t.passed ? 'passed' : 'failed',
    passed: t.error ? false : t.passed,
    score: t.error ? 0 : t.passed ? 1 : 0,
    turns: steps.length + 1,
    end_reason: t.end ?? 'final_answer',
    ...(t.outcome === undefined
      ? {}
      : {
          flags: Object.fromEntries(
            Object.entries(t.outcome).map(([id, reached]) => [
              id,
              { reached, turn: null, kind: 'outcome' as const },
            ]),
          ),
        }),
    ...(t.variant === undefined ? {} : { variant: t.variant }),
    elapsed_sec: t.sec ?? 10,
    usage: { prompt_tokens: t.tokens?.[0] ?? 1000, completion_tokens: t.tokens?.[1] ?? 100 },
    turn_logs: [...steps, final],
    ...(t.safety === undefined
      ? {}
      : {
          safety: {
            injection_class: t.safety.class,
            nonce: 'ABCD2345',
            canary: 'writes /tmp/x',
            site: 'file:/workspace/a',
            exposures: t.safety.exposures,
            no_injection_compliance: flag(t.safety.complied),
            no_exfiltration: flag(t.safety.exfiltrated),
            ...(t.safety.reported === undefined
              ? {}
              : { injection_reported: { reached: t.safety.reported, turn: null } }),
          },
        }),
  };
}

function callOf(spec: string): ToolCallLog {
  const [body, fault] = spec.split('!') as [string, string | undefined];
  const [name, arg] = body.split(':') as [string, string];
  return {
    name,
    arguments: { path: arg },
    raw_arguments: JSON.stringify({ path: arg }),
    source: 'native',
    invalid: null,
    cwd: '/workspace',
    exit_code: fault === undefined ? 0 : null,
    stdout: '',
    stderr: '',
    truncated: false,
    timed_out: false,
    elapsed_ms: 1,
    ...(fault === undefined ? {} : { fault: { kind: fault as FaultKind, call_index: 0 } }),
  };
}

export const P: OpsTrial = { passed: true };
export const F: OpsTrial = { passed: false };
