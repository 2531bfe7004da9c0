/**
 * What the operational axes read from one trial record, computed in one place for the axes report
 * and the per-trial CSV (agent-bench stats) alike. Pure: a trial record in, numbers out.
 */
import type { EndReason, ToolCallLog, TrialRecord } from '../results/trial.js';
import { canonicalJson } from '../util/hash.js';

export interface TrialFacts {
  index: number;
  /** false for an `error` trial: not measured, counted nowhere. */
  measured: boolean;
  passed: boolean;
  turns: number;
  tool_calls: number;
  /**
   * Calls identical (tool and arguments) to an earlier call that ran, with nothing written in between
   * (no write_file, no command the trace shows writing): they could not show anything new.
   */
  duplicate_calls: number;
  /** Calls answered with an injected fault (noisy). */
  faults: number;
  /** Faulted calls resent later in the trial and run that time. */
  retried_faults: number;
  /**
   * min(1, optimal_steps / turns that called a tool) on a passing trial (the final answer is no step:
   * optimal_steps counts the work); null otherwise or without an optimum.
   */
  efficiency: number | null;
  /**
   * min(1, optimal calls / tool calls made) on a passing trial, where the optimal calls are the optimal
   * steps: a step of the optimum is one tool call (a task's default optimum counts its reference
   * solution's turns that call a tool, one call each), so seven calls batched into one turn save turns
   * (efficiency 1) but not calls (3 / 7). null otherwise or without an optimum.
   */
  call_efficiency: number | null;
  end_reason: EndReason;
  /** The trial ended on its own answer (a final answer, or the simulated user ended the dialogue), not cut off. */
  finished: boolean;
  /**
   * The trial's final outcome, as a key two trials agree on exactly when they ended alike: pass or fail
   * and each outcome flag reached or not (by flag id). Trial agreement compares these.
   */
  outcome: string;
  prompt_tokens: number;
  completion_tokens: number;
  elapsed_sec: number;
  /** Tokens and milliseconds the server timed itself (llama-server `timings`), summed over the replies that had them. */
  timed: {
    prompt_tokens: number;
    prompt_ms: number;
    predicted_tokens: number;
    predicted_ms: number;
    replies: number;
  };
  /** Model latency summed over the replies, for a generation rate where the server sent no timings. */
  model_latency_ms: number;
  /** A Harbor verifier's named metrics (reward.json), or null when it wrote none. */
  rewards: Record<string, number> | null;
  /** adversarial only. */
  safety: {
    injection_class: string;
    exposures: number;
    complied: boolean;
    exfiltrated: boolean;
    /** The final answer reported the injection (schema 2.7; false in older files). */
    reported: boolean;
  } | null;
}

export function trialFacts(t: TrialRecord, optimalSteps: number | null): TrialFacts {
  const calls = t.turn_logs.flatMap((turn) => turn.tool_calls);
  const timed = { prompt_tokens: 0, prompt_ms: 0, predicted_tokens: 0, predicted_ms: 0, replies: 0 };
  for (const turn of t.turn_logs) {
    if (turn.timings === undefined) continue;
    timed.prompt_tokens += turn.timings.prompt_tokens;
    timed.prompt_ms += turn.timings.prompt_ms;
    timed.predicted_tokens += turn.timings.predicted_tokens;
    timed.predicted_ms += turn.timings.predicted_ms;
    timed.replies++;
  }
  const { duplicates, retried } = repeats(calls);
  const steps = t.turn_logs.filter((turn) => turn.tool_calls.length > 0).length;
  return {
    index: t.index,
    measured: t.status !== 'error',
    passed: t.passed,
    turns: t.turns,
    tool_calls: calls.length,
    duplicate_calls: duplicates,
    faults: calls.filter((c) => c.fault !== undefined).length,
    retried_faults: retried,
    efficiency: t.passed && optimalSteps !== null ? Math.min(1, optimalSteps / Math.max(1, steps)) : null,
    call_efficiency:
      t.passed && optimalSteps !== null ? Math.min(1, optimalSteps / Math.max(1, calls.length)) : null,
    end_reason: t.end_reason,
    finished: FINISHED.has(t.end_reason),
    outcome: outcomeKey(t),
    prompt_tokens: t.usage.prompt_tokens,
    completion_tokens: t.usage.completion_tokens,
    elapsed_sec: t.elapsed_sec,
    timed,
    model_latency_ms: t.turn_logs.reduce((a, turn) => a + turn.model_latency_ms, 0),
    rewards: t.rewards ?? null,
    safety:
      t.safety === undefined
        ? null
        : {
            injection_class: t.safety.injection_class,
            exposures: t.safety.exposures,
            complied: !t.safety.no_injection_compliance.reached,
            exfiltrated: !t.safety.no_exfiltration.reached,
            reported: t.safety.injection_reported?.reached === true,
          },
  };
}

/** End reasons of a trial that ended on its own answer; the others were cut off (turns, time, a stalled tool). */
const FINISHED: ReadonlySet<EndReason> = new Set(['final_answer', 'user_ended']);

function outcomeKey(t: TrialRecord): string {
  const flags = Object.entries(t.flags)
    .filter(([, f]) => f.kind === 'outcome')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, f]) => `${id}=${f.reached ? 1 : 0}`);
  return [t.passed ? 'pass' : 'fail', ...flags].join(' ');
}

/**
 * A call repeating one that ran, with nothing written since, is a duplicate; a call repeating one that
 * was answered with a fault is a retry, which is what a fault asks for, and a retry that ran recovers
 * that fault. Refused calls ran nothing and count in neither (format compliance has them).
 */
function repeats(calls: readonly ToolCallLog[]): { duplicates: number; retried: number } {
  const ran = new Set<string>();
  const faulted = new Map<string, number>();
  let duplicates = 0;
  let retried = 0;
  for (const call of calls) {
    if (call.invalid !== null) continue;
    const key = `${call.name}\u0000${canonicalJson(call.arguments)}`;
    if (ran.has(key)) duplicates++;
    if (call.fault !== undefined) {
      faulted.set(key, (faulted.get(key) ?? 0) + 1);
      continue;
    }
    retried += faulted.get(key) ?? 0;
    faulted.delete(key);
    // What it wrote may make any earlier call worth repeating (a test run after an edit).
    if (mayHaveWritten(call)) ran.clear();
    ran.add(key);
  }
  return { duplicates, retried };
}

/** write_file, an MCP tool, or a command whose trace shows a write, a removal or a rename; an untraced command may have written anything. */
function mayHaveWritten(call: ToolCallLog): boolean {
  if (call.name === 'write_file') return call.exit_code === 0;
  // An MCP tool that ran may have changed what any call sees (its server's state, the files).
  if (call.mcp !== undefined) return call.exit_code === 0;
  if (call.name !== 'execute_command') return false;
  if (call.processes === undefined) return true;
  return call.processes.some((p) => p.writes.length > 0 || p.removed.length > 0 || p.renamed_to.length > 0);
}
