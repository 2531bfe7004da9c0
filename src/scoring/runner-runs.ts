/**
 * Test and type-check runs judged by what really ran and what the model saw, never by the command's
 * wording: a run is a process of a runner (pytest, node's test runner, tsc) in the call's process
 * trace, with its own exit code and the workspace files it read, paired with the runner's verdict as
 * it appeared in the output the model was shown. `pytest | tail -5`, `pytest; echo $?`,
 * `cd tests && python -m pytest`, `npm test`, a script that runs pytest and a wrapper that execs it
 * (`bash -c 'exec pytest'`) all count; `echo "3 failed"`, a run of other tests, or a run whose
 * summary never reached the model (`> /dev/null`, `| wc -l`) do not. A process's exit code is its
 * last program's: a runner that was not the last program of its process (something exec'd over it)
 * ran, but its exit code is unknown.
 */
import { type RunnerName, type RunnerSummary, readRunnerSummary } from '../evidence/runner-summary.js';
import type { ProcessLog, ProgramLog, ToolCallLog } from '../results/trial.js';
import type { CheckContext } from '../tasks/types.js';
import { jsRunKind } from './js-runners.js';
import type { StepRef } from './ordering.js';
import { processTree, sourceOf } from './process-tree.js';
import { programsOf } from './program-runs.js';
import { pytestArguments } from './pytest.js';
import { narrowed } from './run-scope.js';
import type { Word } from './shell-words.js';
import { type StandIn, standInsOf } from './stand-ins.js';

export interface RunnerRun {
  turn: number;
  /** step: the runner's place among the call's processes, so ordering against writes is exact. */
  at: StepRef;
  runner: RunnerName;
  /** The runner's own exit code; null when it was killed or still running. */
  exitCode: number | null;
  /** Workspace files the runner and the processes it started opened to read. */
  read: ReadonlySet<string>;
  /** The runner's verdict in the output the model was shown; null when none reached it. */
  seen: RunnerSummary | null;
  /** The runner's own process opened /dev/null to write: (some of) its output went nowhere. */
  outputRedirected: boolean;
  /** Why the run was not the project's whole verification (run-scope.ts); null when it was. */
  narrowed: string | null;
  /** Files the agent wrote that stood in for part of the run (stand-ins.ts): then it is no evidence. */
  standIns: readonly StandIn[];
}

const cache = new WeakMap<object, RunnerRun[]>();

/** Every runner run of the trial, in order. Calls without a trace contribute none. */
export function runnerRuns(ctx: Pick<CheckContext, 'calls' | 'declaredWrites'>): RunnerRun[] {
  const cached = cache.get(ctx.calls);
  if (cached !== undefined) return cached;
  const out: RunnerRun[] = [];
  ctx.calls.forEach((log, call) => {
    for (const run of runsOf(log)) {
      const at = { call, step: run.step };
      out.push({ ...run, turn: log.turn, at, standIns: standInsOf(ctx, at, 'runner') });
    }
  });
  cache.set(ctx.calls, out);
  return out;
}

function runsOf(log: ToolCallLog): (Omit<RunnerRun, 'turn' | 'at' | 'standIns'> & { step: number })[] {
  const processes = log.processes;
  if (log.name !== 'execute_command' || processes === undefined) return [];
  const shown = log.stderr === '' ? log.stdout : `${log.stdout}\n${log.stderr}`;
  const kinds = processes.map(runnerOf);
  const byPid = new Map(processes.map((p, i) => [p.pid, i]));
  const out: (Omit<RunnerRun, 'turn' | 'at' | 'standIns'> & { step: number })[] = [];
  processes.forEach((p, step) => {
    const kind = kinds[step];
    // A runner started by a runner of its kind (node --test's per-file children) is part of that run.
    if (kind == null || ancestorRunner(p, processes, byPid, kinds) === kind.runner) return;
    const read = readsUnder(processes, step);
    out.push({
      step,
      runner: kind.runner,
      exitCode: kind.last && p.signal === null ? p.exit_code : null,
      read,
      seen: readRunnerSummary(kind.runner, shown),
      outputRedirected: p.writes.includes('/dev/null'),
      narrowed: narrowed(kind.runner, runnerArgs(kind.runner, p), readsUnder(processes, step, '/')),
    });
  });
  return out;
}

/** The runner a process ran (any program of its exec chain), and whether it was its last program. */
function runnerOf(p: ProcessLog): { runner: RunnerName; last: boolean } | null {
  const kinds = programsOf(p).map(programRunner);
  const last = kinds.at(-1);
  if (last != null) return { runner: last, last: true };
  const earlier = kinds.find((k) => k !== null);
  return earlier == null ? null : { runner: earlier, last: false };
}

function programRunner(p: ProgramLog): RunnerName | null {
  if (p.argv === null || p.argv.length === 0) return null;
  const words = p.argv.map(literalWord);
  if (pytestArguments(words) !== null) return 'pytest';
  const js = jsRunKind(words);
  if (js === 'typecheck') return 'tsc';
  // Package managers only start the runner; the runner's own process is the one that counts.
  if (js === 'test' && /(^|\/)(node|nodejs)$/.test(p.exe ?? p.argv[0] ?? '')) return 'node:test';
  return null;
}

function ancestorRunner(
  p: ProcessLog,
  all: readonly ProcessLog[],
  byPid: ReadonlyMap<number, number>,
  kinds: readonly ({ runner: RunnerName } | null)[],
): RunnerName | null {
  let parent = p.parent_pid === null ? undefined : byPid.get(p.parent_pid);
  while (parent !== undefined) {
    const kind = kinds[parent];
    if (kind != null) return kind.runner;
    const pp = all[parent]?.parent_pid;
    parent = pp == null ? undefined : byPid.get(pp);
  }
  return null;
}

/** The arguments the runner itself was given (after its program: pytest's, node's, tsc's). */
function runnerArgs(runner: RunnerName, p: ProcessLog): string[] {
  const argv = p.argv ?? [];
  if (runner === 'pytest') return (pytestArguments(argv.map(literalWord)) ?? []).map((w) => w.text);
  if (runner === 'tsc') {
    const at = argv.findIndex((a) => /(^|\/)tsc$/.test(a));
    return at < 0 ? [] : argv.slice(at + 1);
  }
  return argv.slice(1);
}

function readsUnder(all: readonly ProcessLog[], root: number, under = '/workspace/'): Set<string> {
  const read = new Set<string>();
  for (const p of processTree(all, root))
    for (const path of p.reads) if (path.startsWith(under)) read.add(sourceOf(path));
  return read;
}

function literalWord(text: string): Word {
  return {
    text,
    pattern: text.replace(/[\\*?[\]{}]/g, '\\$&'),
    dynamic: false,
    quoted: false,
    substitutions: [],
  };
}

/**
 * The runner's exit code as evidence: only when nothing of the agent's stood in for part of the run
 * (stand-ins.ts) and the model saw a verdict that agrees with it (tests
 * failed and it saw them fail; they passed and it saw them pass). tsc prints nothing when it passes,
 * so a clean type check is its exit code 0 with no diagnostic in what the model saw. null: the run
 * is neither red nor green evidence.
 */
export function observedExit(run: RunnerRun): number | null {
  const { exitCode, seen } = run;
  // What ran in its place was the agent's: the exit code says nothing of the workspace's code.
  if (exitCode === null || run.standIns.length > 0) return null;
  if (run.runner === 'tsc') {
    const errors = seen?.runner === 'tsc' ? seen.errors : 0;
    // Silence is evidence only when it could have reached the model, not when sent to /dev/null.
    if (exitCode === 0) return errors === 0 && !run.outputRedirected ? 0 : null;
    return errors > 0 ? exitCode : null;
  }
  if (seen === null) return null;
  if (exitCode === 0) return seen.verdict === 'passed' ? 0 : null;
  return seen.verdict === 'failed' ? exitCode : null;
}
