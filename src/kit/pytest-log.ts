/**
 * A red log (a file the agent saves pytest's failing run to, e.g. tdd_strict_v1's red.log), judged
 * on the process trace: which pytest runs wrote their own output into it, and whether the log's
 * text is a failure of the target. A pytest process whose `writes` hold the log
 * had it opened as its output before it exec'd pytest (`pytest > red.log 2>&1`, or a wrapper such as
 * `timeout 60 pytest > red.log`, where the wrapper opened it); `pytest 2>&1 | tee red.log` shows as
 * a tee writing the log whose sibling in the same call (same parent) is a pytest run. A log written
 * any other way (write_file, `echo ... > red.log`, a tee of something else) was not produced by a run.
 *
 * Known limit: the trace has no pipe identities, so `pytest; echo "1 failed in 0.1s" | tee red.log`
 * passes for a tee of pytest. The content check still needs the text to agree with that real run's
 * exit code (a failure on the target), so the run must have been a real red run all the same.
 */
import { readRunnerSummary } from '../evidence/runner-summary.js';
import type { ProcessLog } from '../results/trial.js';
import type { StepRef } from '../scoring/ordering.js';
import { type RunnerRun, runnerRuns } from '../scoring/runner-runs.js';
import type { CheckContext } from '../tasks/types.js';
import { targetRedText } from './tdd.js';

/** One write of the log by a pytest run: `at` is the writing process (pytest, its wrapper, or a tee). */
export interface LogWrite {
  at: StepRef;
  turn: number;
  /** The pytest run whose output went into the log. */
  run: RunnerRun;
}

/** Every write of absPath by a pytest run's own output, in trace order. */
export function pytestLogWrites(
  ctx: Pick<CheckContext, 'calls' | 'declaredWrites'>,
  absPath: string,
): LogWrite[] {
  const out: LogWrite[] = [];
  for (const run of runnerRuns(ctx)) {
    // A run something of the agent's stood in for (stand-ins.ts) wrote no pytest's log.
    if (run.runner !== 'pytest' || run.standIns.length > 0) continue;
    const processes = ctx.calls[run.at.call]?.processes ?? [];
    const runner = processes[run.at.step];
    if (runner === undefined) continue;
    const add = (step: number): void => {
      out.push({ at: { call: run.at.call, step }, turn: run.turn, run });
    };
    if (runner.writes.includes(absPath)) add(run.at.step);
    // A wrapper (timeout, env, nice, an inner bash -c) that opened the log before starting pytest.
    for (const step of wrappersOf(runner, processes))
      if (processes[step]?.writes.includes(absPath)) add(step);
    processes.forEach((p, step) => {
      if (isTee(p) && p.parent_pid === runner.parent_pid && p.writes.includes(absPath)) add(step);
    });
  }
  return out.sort((a, b) => a.at.call - b.at.call || a.at.step - b.at.step);
}

/** The runner's recorded ancestors below the call's own shell (which also runs builtins such as echo). */
function wrappersOf(runner: ProcessLog, processes: readonly ProcessLog[]): number[] {
  const byPid = new Map(processes.map((p, i) => [p.pid, i]));
  const out: number[] = [];
  let parent = runner.parent_pid === null ? undefined : byPid.get(runner.parent_pid);
  while (parent !== undefined) {
    const p = processes[parent];
    if (p === undefined || p.parent_pid === null) break;
    out.push(parent);
    parent = byPid.get(p.parent_pid);
  }
  return out;
}

function isTee(p: ProcessLog): boolean {
  const program = p.exe ?? p.argv?.[0] ?? '';
  return /(^|\/)tee$/.test(program);
}

/**
 * The log's text is pytest's report of a failure of the target, agreeing with the run's own exit
 * code: exit 1 with failed tests counted or named, or exit 2 (interrupted) naming the missing
 * module, never a syntax or collection error of the test file.
 */
export function logShowsTargetRed(log: string, exitCode: number | null, module: string): boolean {
  const summary = readRunnerSummary('pytest', log);
  if (summary === null || summary.verdict !== 'failed') return false;
  if (exitCode === 1 && (summary.counts?.failed ?? 0) + summary.failedTests.length === 0) return false;
  return targetRedText(exitCode, log, module);
}
