import type { RunSettings, SandboxLimits } from '../results/result-file.js';

export const DEFAULT_LIMITS: SandboxLimits = { memory_mb: 2048, pids: 256, cpus: 2 };
export const DEFAULT_COMMAND_TIMEOUT_SEC = 60;

/** Output and read caps are fixed (not flags): they are part of what every model is compared under. */
export const DISPATCH_LIMITS = {
  modelStdoutChars: 8000,
  modelStderrChars: 4000,
  readLimitBytes: 64 * 1024,
} as const;

/** Why a run is not comparable with default runs (empty when it is). */
export function nonComparableReasons(s: RunSettings): string[] {
  const reasons: string[] = [];
  if (s.max_turns !== null) reasons.push(`max_turns overridden to ${s.max_turns}`);
  if (s.command_timeout_sec !== DEFAULT_COMMAND_TIMEOUT_SEC)
    reasons.push(`command timeout ${s.command_timeout_sec}s`);
  if (s.limits.memory_mb !== DEFAULT_LIMITS.memory_mb) reasons.push(`memory ${s.limits.memory_mb} MiB`);
  if (s.limits.pids !== DEFAULT_LIMITS.pids) reasons.push(`pids limit ${s.limits.pids}`);
  if (s.limits.cpus !== DEFAULT_LIMITS.cpus) reasons.push(`cpus ${s.limits.cpus}`);
  if (s.tool_calls !== undefined) reasons.push(`${s.tool_calls} tool calls only`);
  return reasons;
}
