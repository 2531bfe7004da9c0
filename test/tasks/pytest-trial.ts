/**
 * Crafted trials for the Python tasks, where test runs are judged on the process trace: a pytest
 * call is a traced command whose pytest process read the given files and exited with its own code,
 * and whose output (what the model saw) holds pytest's summary. Ground truth prints pytest's summary
 * too, since the harness's runs need it (`N passed` when the fake truth says it passes).
 */
import { isDifferentialScript } from '../../src/kit/differential-run.js';
import type { ProcessLog, ToolCallLog } from '../../src/results/trial.js';
import { WORKSPACE_DIR } from '../../src/sandbox/types.js';
import type { Task } from '../../src/tasks/types.js';
import { proc, traced } from '../scoring/call-fixtures.js';
import {
  type CraftedCall,
  type CraftedTrial,
  craftTrial,
  type FakeTruth,
  reachedTurns,
} from './crafted-trial.js';

/** What pytest prints for its exit codes, by default. */
const PYTEST_OUTPUT: Readonly<Record<number, string>> = {
  0: '....                                                                     [100%]\n4 passed in 0.01s\n',
  1: 'F...                                                                     [ 25%]\nFAILED test_x.py::test_a - assert 1 == 2\n1 failed, 3 passed in 0.02s\n',
  4: 'ERROR: file or directory not found: nothere.py\n\nno tests ran in 0.01s\n',
  5: '\nno tests ran in 0.01s\n',
};

export interface PytestCallOptions {
  /** pytest's own exit code. */
  exit: number;
  /** Files pytest read (workspace-relative or absolute). */
  reads: readonly string[];
  /** What the model saw; default PYTEST_OUTPUT[exit]. */
  stdout?: string;
  /** The call's exit code as the shell reported it; default `exit`. */
  shellExit?: number;
  /** Files pytest itself wrote (its output redirected there). */
  writes?: readonly string[];
  /** More processes of the call after pytest (pid 1 is the call's shell). */
  also?: readonly ProcessLog[];
  argv?: string[];
  /** The pytest process's pid (for tests that name it as a parent). */
  pid?: number;
}

const abs = (path: string): string => (path.startsWith('/') ? path : `${WORKSPACE_DIR}/${path}`);

/** A traced execute_command in which pytest really ran. */
export function pytestCall(command: string, o: PytestCallOptions): ToolCallLog {
  const pytest = proc(o.argv ?? ['python3', '-m', 'pytest', '-q'], {
    ...(o.pid === undefined ? {} : { pid: o.pid }),
    exe: '/usr/bin/python3',
    exit: o.exit,
    reads: o.reads.map(abs),
    writes: (o.writes ?? []).map(abs),
  });
  return traced(command, {
    exit: o.shellExit ?? o.exit,
    stdout: o.stdout ?? PYTEST_OUTPUT[o.exit] ?? '',
    processes: [pytest, ...(o.also ?? [])],
  });
}

/** craftTrial whose ground truth prints pytest's own summary (`extra` lines before it on a pass). */
export function craftPytestTrial(
  task: Task,
  turns: readonly (readonly CraftedCall[])[],
  truth: FakeTruth,
  extra: (command: string) => string = () => '',
): CraftedTrial {
  const trial = craftTrial(task, turns, truth);
  const run = trial.ctx.groundTruth.run.bind(trial.ctx.groundTruth);
  trial.ctx.groundTruth.run = async (command) => {
    const r = await run(command);
    if (isDifferentialScript(command)) return r;
    const stdout =
      r.exitCode === 0 ? `${extra(command)}3 passed in 0.01s\n` : '1 failed, 2 passed in 0.01s\n';
    return { ...r, stdout };
  };
  return trial;
}

export const reachedWithSummaries = (
  task: Task,
  turns: readonly (readonly CraftedCall[])[],
  truth: FakeTruth,
  extra?: (command: string) => string,
) => reachedTurns(task, craftPytestTrial(task, turns, truth, extra).ctx);
