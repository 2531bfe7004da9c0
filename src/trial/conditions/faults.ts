/**
 * The noisy condition: a tool call may be answered with an injected fault instead of running.
 * Whether runnable call i of a trial faults, and with which kind, comes from
 * sha256(task | condition | trial | i) alone, never the model: every model meets the same faults at
 * the same call numbers, on any machine, and a higher failure rate faults a superset of the calls a
 * lower one does. A faulted call never reaches the sandbox, so it is evidence of nothing: the checks
 * never see it (withoutFaults).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultKind, ToolCallLog, TurnLog } from '../../results/trial.js';
import { sha256 } from '../../util/hash.js';
import type { CallHook, ToolOutcome } from './call-hook.js';

export const FAULT_KINDS: readonly FaultKind[] = [
  'timeout',
  'internal_error',
  'malformed_output',
  'empty_result',
  'rate_limit',
];

export interface FaultSeed {
  taskId: string;
  /** 0-based trial index. */
  trial: number;
}

/** The fault of runnable call `call` (0-based), or null when it runs. */
export function faultAt(seed: FaultSeed, call: number, failureRate: number): FaultKind | null {
  const hex = sha256(`${seed.taskId}|noisy|${seed.trial}|${call}`);
  // 52 bits: exactly representable, uniform on [0, 1).
  const draw = Number.parseInt(hex.slice(0, 13), 16) / 2 ** 52;
  if (draw >= failureRate) return null;
  return FAULT_KINDS[Number.parseInt(hex.slice(13, 21), 16) % FAULT_KINDS.length] as FaultKind;
}

export interface FaultOptions extends FaultSeed {
  failureRate: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A per-trial hook that counts the runnable calls and answers the faulted ones itself. */
export function faultHook(o: FaultOptions): CallHook {
  let next = 0;
  return async (call, run) => {
    const index = next++;
    const kind = faultAt(o, index, o.failureRate);
    if (kind === null) return run();
    const started = Date.now();
    // A timeout takes its time: the model waits as it would for a tool that hangs.
    if (kind === 'timeout') await sleep(o.timeoutMs, undefined, o.signal ? { signal: o.signal } : {});
    return faultOutcome(kind, index, call.name, o.timeoutMs, Date.now() - started);
  };
}

function faultOutcome(
  kind: FaultKind,
  index: number,
  tool: string,
  timeoutMs: number,
  elapsedMs: number,
): ToolOutcome {
  const reply = faultReply(kind, tool, timeoutMs);
  return {
    log: {
      invalid: null,
      exit_code: null,
      stdout: '',
      // What the model was shown; nothing ran, so there is no real output.
      stderr: reply,
      truncated: false,
      timed_out: false,
      elapsed_ms: elapsedMs,
      fault: { kind, call_index: index },
    },
    reply,
  };
}

/** What the model sees for each kind: each tells apart on the wire from the others and from a real result. */
function faultReply(kind: FaultKind, tool: string, timeoutMs: number): string {
  switch (kind) {
    case 'timeout':
      return `Error: ${tool} timed out after ${formatSeconds(timeoutMs)} s without an answer; the call was cancelled.`;
    case 'internal_error':
      return '{"error": "Internal Server Error", "status": 500, "detail": "the tool server failed while handling the call"}';
    case 'malformed_output':
      return '{"status": "ok", "exit_code": 0, "output": "\\u001b[0m\uFFFD\uFFFD';
    case 'empty_result':
      return '';
    case 'rate_limit':
      return `{"error": "Too Many Requests", "status": 429, "detail": "rate limit exceeded for ${tool}", "retry_after_sec": 2}`;
  }
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/** The turns as the checks see them: calls that were answered with a fault did not happen in the sandbox. */
export function withoutFaults(turns: readonly TurnLog[]): TurnLog[] {
  return turns.map((t) =>
    t.tool_calls.some(isFaulted) ? { ...t, tool_calls: t.tool_calls.filter((c) => !isFaulted(c)) } : t,
  );
}

const isFaulted = (c: ToolCallLog): boolean => c.fault !== undefined;
