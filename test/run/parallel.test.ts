/**
 * Trials on several workers (--parallel): what is recorded, which container each trial has, early
 * stop, abort and a server that fails for good. No Docker and no clock: in-memory sandboxes, models
 * that wait on each other (a test that needs two trials in flight cannot pass with one), and results
 * files in a temporary folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChatModel, type ModelReply, ModelRequestError } from '../../src/models/types.js';
import type { TrialEvent } from '../../src/results/events.js';
import type { ResultFile, RunSettings } from '../../src/results/result-file.js';
import { readResultFiles, withHash, writeResultFile } from '../../src/results/store.js';
import { RunStoppedError } from '../../src/run/run-stopped.js';
import type { TaskRunOptions } from '../../src/run/run-task.js';
import { formatSummary } from '../../src/run/summary.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import type { Task } from '../../src/tasks/types.js';
import { InterruptedError } from '../../src/util/errors.js';
import { memoryEnvironment, SAY_DONE } from '../helpers/memory-run.js';
import { MEMORY_SANDBOX_LACKS, memorySandbox } from '../helpers/memory-sandbox.js';
import { runSettings } from '../helpers/run-settings.js';
import { sandboxConformance } from '../sandbox/conformance.js';
import { runInMemory } from './task-runs.js';

const MODEL = 'parallel-model';
const ENVIRONMENT = memoryEnvironment(MODEL, { parallel: 2 });
const TASK_A = SAY_DONE;
const TASK_B: Task = { ...SAY_DONE, id: 'say_done_b_v1' };
const TASK_C: Task = { ...SAY_DONE, id: 'say_done_c_v1' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallel-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One reply: after `before` resolves, either a command (that says which trial runs it) or a final answer. */
interface Step {
  before?: (signal: AbortSignal | undefined) => Promise<void>;
  reply: 'command' | { say: string } | { fail: ModelRequestError };
}

/** A model of trial `who` that plays `steps`, one a request. */
function stepModel(who: string, steps: readonly Step[]): ChatModel {
  let cursor = 0;
  return {
    name: MODEL,
    async complete(_messages, _tools, signal): Promise<ModelReply> {
      const step = steps[cursor++] ?? { reply: { say: 'done' } };
      await step.before?.(signal);
      signal?.throwIfAborted();
      if (typeof step.reply === 'object' && 'fail' in step.reply) throw step.reply.fail;
      const command = step.reply === 'command';
      return {
        text: command ? '' : (step.reply as { say: string }).say,
        toolCalls: command
          ? [
              {
                id: `call_${cursor}`,
                name: 'execute_command',
                rawArguments: JSON.stringify({ command: `echo trial-of ${who}` }),
                arguments: { command: `echo trial-of ${who}` },
                source: 'native',
              },
            ]
          : [],
        usage: null,
        finishReason: command ? 'tool_calls' : 'stop',
        latencyMs: 0,
        retries: [],
        malformed: null,
      };
    },
  };
}

/** Releases its callers two at a time: a trial that waits here goes on only once another one is in flight. */
function pairs(): (signal: AbortSignal | undefined) => Promise<void> {
  let waiting: (() => void)[] = [];
  return (signal) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('no second trial came: they do not run at once')),
        5000,
      );
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
      if (waiting.length === 2) {
        for (const release of waiting) release();
        waiting = [];
      }
    });
}

/** Never resolves; rejects when the run is aborted. */
const untilAborted = (signal: AbortSignal | undefined): Promise<void> =>
  new Promise((_, reject) => {
    if (signal?.aborted) reject(signal.reason);
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

/** A promise and its resolve. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open = (): void => {};
  const promise = new Promise<void>((r) => {
    open = r;
  });
  return { promise, open };
}

/**
 * In-memory sandboxes that notice misuse: a container used by two trials without a reset between
 * them, a container used after it was removed; and how many were open at once.
 */
function trackedSandboxes() {
  const s = { made: 0, live: 0, most: 0, violations: [] as string[], resets: new Map<string, number>() };
  const open = async (): Promise<Sandbox> => {
    const base = memorySandbox();
    const id = `mem-${s.made++}`;
    let holder: string | null = null;
    let disposed = false;
    s.live++;
    s.most = Math.max(s.most, s.live);
    return {
      ...base,
      id,
      reset: async () => {
        if (disposed) s.violations.push(`${id} reset after it was removed`);
        s.resets.set(id, (s.resets.get(id) ?? 0) + 1);
        holder = null;
        await base.reset();
      },
      runCommand: async (command, timeoutMs) => {
        if (disposed) s.violations.push(`${id} used after it was removed`);
        const who = /trial-of (\S+)/.exec(command)?.[1] ?? '?';
        holder ??= who;
        if (holder !== who) s.violations.push(`${id} used by ${holder} and ${who} without a reset between`);
        return base.runCommand(command, timeoutMs);
      },
      dispose: async () => {
        if (disposed) return;
        disposed = true;
        s.live--;
      },
    };
  };
  return { open, stats: s };
}

const SETTINGS: RunSettings = runSettings({ k: 3 });

/** Runs `tasks` on `parallel` workers; `steps(taskId, index)` scripts each trial. */
function setUp(o: {
  settings?: Partial<RunSettings>;
  steps: (taskId: string, index: number) => Step[];
  onEvent?: (taskId: string, e: TrialEvent) => void;
  resumeFrom?: ResultFile;
}) {
  const sandboxes = trackedSandboxes();
  const events: { task: string; e: TrialEvent }[] = [];
  const models: string[] = [];
  /** Task id -> the trial indexes of every version of its file written, in order. */
  const writes = new Map<string, number[][]>();
  const options = (task: Task): Omit<TaskRunOptions, 'signal'> => {
    let made = 0;
    return {
      runId: 'run-p',
      task,
      taskVersion: 'v1',
      modelName: MODEL,
      makeModel: () => {
        // Trials start in index order, so the n-th model of a task is its trial n (resumed ones skipped).
        const index = o.resumeFrom === undefined ? made++ : [0, 2][made++];
        models.push(`${task.id}#${index}`);
        return stepModel(`${task.id}#${index}`, o.steps(task.id, index ?? -1));
      },
      openSandbox: sandboxes.open,
      settings: { ...SETTINGS, ...o.settings },
      resultsDir: dir,
      environment: ENVIRONMENT,
      onEvent: (e) => {
        events.push({ task: task.id, e });
        o.onEvent?.(task.id, e);
      },
      writeResult: (d, r) => {
        writes.set(r.task_id, [...(writes.get(r.task_id) ?? []), r.trials.map((t) => t.index)]);
        return writeResultFile(d, r);
      },
      ...(o.resumeFrom === undefined ? {} : { resumeFrom: o.resumeFrom }),
    };
  };
  return { sandboxes, events, models, writes, options };
}

/** The results files in the folder, in the order of these tasks. */
const onDisk = async (): Promise<ResultFile[]> => {
  const order = [TASK_A.id, TASK_B.id, TASK_C.id];
  return (await readResultFiles(dir)).results
    .map((r) => r.result)
    .sort((a, b) => order.indexOf(a.task_id) - order.indexOf(b.task_id));
};

describe('--parallel 2', () => {
  it('records every trial of every task once, in index order, each container used by one trial at a time', async () => {
    const together = pairs();
    const a1Ended = latch();
    const t = setUp({
      steps: (task, index) => [
        { reply: 'command' },
        { before: together, reply: 'command' },
        // Trial 0 of the first task ends after its trial 1: the file must still list them in order.
        ...(task === TASK_A.id && index === 0
          ? [{ before: () => a1Ended.promise, reply: 'command' as const }]
          : []),
        { reply: { say: 'done' } },
      ],
      onEvent: (task, e) => {
        if (task === TASK_A.id && e.type === 'trial_end' && e.trial === 1) a1Ended.open();
      },
    });
    const results = await runInMemory({ tasks: [TASK_A, TASK_B], parallel: 2, options: t.options });

    for (const r of [...results, ...(await onDisk())]) {
      expect(r.status).toBe('complete');
      expect(r.trials.map((x) => x.index)).toEqual([0, 1, 2]);
      expect(r.trials.map((x) => x.status)).toEqual(['passed', 'passed', 'passed']);
    }
    expect(results.map((r) => r.task_id)).toEqual([TASK_A.id, TASK_B.id]);
    // Each trial ran once: one model each, one trial_end each.
    expect(t.models.sort()).toEqual(
      [0, 1, 2].flatMap((i) => [`${TASK_A.id}#${i}`, `${TASK_B.id}#${i}`]).sort(),
    );
    const ends = t.events.filter((x) => x.e.type === 'trial_end').map((x) => `${x.task}#${x.e.trial}`);
    expect(ends.sort()).toEqual([...t.models].sort());
    // Trial 1 ended first, and every version of the file lists its trials in index order.
    expect(t.writes.get(TASK_A.id)).toContainEqual([1]);
    for (const versions of t.writes.values())
      for (const v of versions) expect(v).toEqual([...v].sort((x, y) => x - y));

    const s = t.sandboxes.stats;
    expect(s.violations).toEqual([]);
    expect(s.most).toBeLessThanOrEqual(2);
    expect(s.most).toBe(2);
    // Reused within a task (reset between trials), and every one removed at the end.
    expect([...s.resets.values()].some((n) => n >= 2)).toBe(true);
    expect(s.made).toBeLessThan(6);
    expect(s.live).toBe(0);
  });

  it('--early-stop: no new trial of the task starts after its first failure; the one running finishes and is recorded', async () => {
    const a1Started = latch();
    const a0Ended = latch();
    const t = setUp({
      settings: { k: 4, early_stop: true },
      steps: (_task, index) =>
        index === 0
          ? // Fails only once trial 1 is in flight.
            [{ before: () => a1Started.promise, reply: { say: 'nope' } }]
          : [{ before: () => a0Ended.promise, reply: { say: 'done' } }],
      onEvent: (_task, e) => {
        if (e.type === 'trial_start' && e.trial === 1) a1Started.open();
        if (e.type === 'trial_end' && e.trial === 0) a0Ended.open();
      },
    });
    const ended: string[] = [];
    const [result] = await runInMemory({
      tasks: [TASK_A],
      parallel: 2,
      options: t.options,
      onTaskEnd: (r) => ended.push(`${r.task_id} ${r.trials.length}`),
    });
    expect(result?.trials.map((x) => `${x.index} ${x.status}`)).toEqual(['0 failed', '1 passed']);
    expect(t.models).toEqual([`${TASK_A.id}#0`, `${TASK_A.id}#1`]);
    expect(result).toMatchObject({
      status: 'complete',
      early_stopped: true,
      trials_run: 2,
      pass_all_k: false,
    });
    expect(ended).toEqual([`${TASK_A.id} 2`]);
    if (result === undefined) throw new Error('no result');
    // The report says how many ran.
    expect(formatSummary([result]).split('\n')[2]).toContain('FAIL (1/2 passed of k=4, early-stopped)');
    expect(t.sandboxes.stats.live).toBe(0);
  });

  it('an abort stops every trial in flight: no trial recorded half-way, no file left running, no container left', async () => {
    const controller = new AbortController();
    let hanging = 0;
    const t = setUp({
      settings: { k: 1 },
      steps: () => [
        { reply: 'command' },
        {
          before: (signal) => {
            // Both tasks' trials are in flight: the user presses Ctrl-C.
            if (++hanging === 2) controller.abort(new InterruptedError('SIGINT'));
            return untilAborted(signal);
          },
          reply: { say: 'done' },
        },
      ],
    });
    const err = await runInMemory({
      tasks: [TASK_A, TASK_B, TASK_C],
      parallel: 2,
      options: t.options,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    const files = await onDisk();
    expect(files.map((f) => `${f.task_id} ${f.status} ${f.trials.length}`)).toEqual([
      `${TASK_A.id} interrupted 0`,
      `${TASK_B.id} interrupted 0`,
    ]);
    expect(t.events.filter((x) => x.e.type === 'trial_end')).toEqual([]);
    expect(t.models).toHaveLength(2);
    expect(t.sandboxes.stats.live).toBe(0);
    expect(t.sandboxes.stats.violations).toEqual([]);
  });

  it('a server that fails for good stops every worker: the other trial is aborted, no new task starts, exit 3', async () => {
    const bStarted = latch();
    const unreachable = new ModelRequestError(
      'model request failed: connection failed: ECONNREFUSED',
      { kind: 'unreachable' },
      [],
    );
    const t = setUp({
      settings: { k: 1 },
      steps: (task) =>
        task === TASK_A.id
          ? [{ before: () => bStarted.promise, reply: { fail: unreachable } }]
          : [{ reply: 'command' }, { before: untilAborted, reply: { say: 'done' } }],
      onEvent: (task, e) => {
        if (task === TASK_B.id && e.type === 'tool_call') bStarted.open();
      },
    });
    const err = await runInMemory({ tasks: [TASK_A, TASK_B, TASK_C], parallel: 2, options: t.options }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RunStoppedError);
    expect((err as RunStoppedError).exitCode).toBe(3);
    expect((err as Error).message).toMatch(/^run stopped: unreachable: model request failed/);
    const [a, b] = (err as RunStoppedError).results;
    expect(a).toMatchObject({ task_id: TASK_A.id, status: 'error' });
    expect(a?.trials.map((x) => x.error?.kind)).toEqual(['unreachable']);
    expect(b).toMatchObject({ task_id: TASK_B.id, status: 'interrupted', trials: [] });
    expect(b?.error).toMatch(/^not finished: run stopped: unreachable/);
    expect((err as RunStoppedError).results).toHaveLength(2);
    // The third task never started; what is on disk says the same.
    expect(t.models).toEqual([`${TASK_A.id}#0`, `${TASK_B.id}#0`]);
    expect((await onDisk()).map((f) => `${f.task_id} ${f.status}`)).toEqual([
      `${TASK_A.id} error`,
      `${TASK_B.id} interrupted`,
    ]);
    expect(t.sandboxes.stats.live).toBe(0);
  });

  it('--resume runs only the trials missing from the file, gaps included, and keeps the rest as they were', async () => {
    const first = setUp({ steps: () => [{ reply: { say: 'done' } }] });
    const [full] = await runInMemory({ tasks: [TASK_A], parallel: 2, options: first.options });
    if (full === undefined) throw new Error('no result');
    // As a run interrupted with trial 1 done and trials 0 and 2 in flight left it.
    const { result_hash: _, schema_version: __, ...rest } = full;
    const gap = withHash({
      ...rest,
      status: 'interrupted',
      trials: rest.trials.filter((x) => x.index === 1),
    });
    await writeResultFile(dir, gap);

    const again = setUp({ steps: () => [{ reply: { say: 'done' } }], resumeFrom: gap });
    const [resumed] = await runInMemory({ tasks: [TASK_A], parallel: 2, options: again.options });
    expect(again.models.sort()).toEqual([`${TASK_A.id}#0`, `${TASK_A.id}#2`]);
    expect(resumed?.trials.map((x) => x.index)).toEqual([0, 1, 2]);
    expect(resumed?.trials[1]).toEqual(gap.trials[0]);
    expect(resumed).toMatchObject({ status: 'complete', run_id: full.run_id, trials_run: 3 });
  });
});

// The tracked sandboxes stand in for real ones here: they are held to the same contract.
sandboxConformance('the tracked in-memory sandbox of the parallel tests', () => trackedSandboxes().open(), {
  capabilities: MEMORY_SANDBOX_LACKS,
});
