/**
 * What the background jobs a command left did once it returned, from their traces followed to
 * their end (Sandbox.followedTraces): the workspace paths they wrote, removed or renamed onto,
 * recorded on the command's log as `survivor_writes`. Causality dates a change by the process that
 * wrote it (src/scoring/ordering.ts): a job that wrote none of the paths judged (a watcher, a dev
 * server, a keep-alive loop) moves no date. A command whose jobs were not followed to their end (no
 * trace kept, or one cut at its cap) keeps no `survivor_writes`: its jobs may have written anything.
 */
import type { ToolCallLog, TurnLog } from '../results/trial.js';
import type { ExecTrace } from '../sandbox/types.js';

const WORKSPACE = /^\/workspace(\/|$)/;

/**
 * Sets `survivor_writes` on each traced command of `turnLogs`: what its jobs `followed` shows they
 * wrote, or none when no trace of it was kept — a tracer follows every descendant (strace -f), so
 * one that ended with its command left no job behind. A cut trace says nothing either way.
 */
export function recordSurvivorWrites(turnLogs: readonly TurnLog[], followed: readonly ExecTrace[]): void {
  const commands = turnLogs
    .flatMap((l) => l.tool_calls)
    .filter((c) => c.processes !== undefined && c.alive_after !== undefined && c.trace_truncated !== true);
  const kept = new Map<ToolCallLog, ExecTrace>();
  for (const trace of followed) {
    const root = trace.processes[0]?.pid;
    const call = commands.find((c) => c.processes?.some((p) => p.pid === root) === true);
    if (call !== undefined) kept.set(call, trace);
  }
  for (const call of commands) {
    const trace = kept.get(call);
    if (trace === undefined) call.survivor_writes = [];
    else if (!trace.truncated) call.survivor_writes = survivorWrites(call, trace);
  }
}

/** The paths the processes still running when `call` returned, and those they started, changed. */
function survivorWrites(call: ToolCallLog, trace: ExecTrace): string[] {
  // Whatever ended within the command is the command's own trace's.
  const ended = new Set(
    (call.processes ?? []).filter((p) => p.exit_code !== null || p.signal !== null).map((p) => p.pid),
  );
  const written = trace.processes
    .filter((p) => !ended.has(p.pid))
    .flatMap((p) => [
      ...p.opens.filter((o) => o.write).map((o) => o.path),
      ...p.removed,
      ...p.renamed.flatMap((r) => [r.from, r.to]),
    ]);
  return [...new Set(written.filter((p) => WORKSPACE.test(p)))].sort();
}
