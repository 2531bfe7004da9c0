/**
 * What progress knows of a run (pure; the time is given): the tasks planned, the trials in flight and
 * the turn each is on, how many trials this run has finished and how many it will run, from which
 * the time left is estimated.
 */
import type { TrialEvent } from '../results/events.js';
import { estimateLeftMs } from './estimate.js';
import type { RunStatus, TrialPlace } from './progress-line.js';

export interface PlannedTask {
  id: string;
  k: number;
  /** The turns a trial may take (the task's, or --max-turns). */
  maxTurns: number;
}

interface TaskState {
  no: number;
  plan: PlannedTask;
  /** Trials this run will run: k, less those resumed, or those it did run once it ended. */
  toRun: number;
  done: number;
}

export interface ProgressState {
  /** The task has started with `toRun` trials left to run (fewer than k when resumed, 0 when already complete). */
  opened(taskId: string, toRun: number): void;
  /** The task ended: it runs no more trials than it ran (early stop, errors, a stopped run). */
  ended(taskId: string): void;
  /** Applies a trial's event; returns where that trial is (null for a task not in the plan). */
  event(taskId: string, e: TrialEvent): TrialPlace | null;
  status(now: number): RunStatus;
}

export function createProgressState(plan: readonly PlannedTask[], startedAt: number): ProgressState {
  const tasks = new Map<string, TaskState>(
    plan.map((p, i) => [p.id, { no: i + 1, plan: p, toRun: p.k, done: 0 }]),
  );
  /** Keyed `task\ntrial`; insertion order is start order. */
  const running = new Map<string, TrialPlace>();

  const placeOf = (t: TaskState, trial: number, turn: number): TrialPlace => ({
    taskNo: t.no,
    tasks: plan.length,
    taskId: t.plan.id,
    trial: trial + 1,
    k: t.plan.k,
    turn,
    maxTurns: t.plan.maxTurns,
  });

  return {
    opened(taskId, toRun) {
      const t = tasks.get(taskId);
      if (t !== undefined) t.toRun = toRun;
    },
    ended(taskId) {
      const t = tasks.get(taskId);
      if (t === undefined) return;
      t.toRun = t.done;
      for (const [key, place] of running) if (place.taskId === taskId) running.delete(key);
    },
    event(taskId, e) {
      const t = tasks.get(taskId);
      if (t === undefined) return null;
      const key = `${taskId}\n${e.trial}`;
      const known = running.get(key);
      const turn = 'turn' in e ? Math.max(e.turn, known?.turn ?? 1) : (known?.turn ?? 1);
      const place = placeOf(t, e.trial, turn);
      if (e.type === 'trial_end') {
        running.delete(key);
        t.done++;
        // A task can run more than planned only if the plan was wrong; the total follows it.
        if (t.done > t.toRun) t.toRun = t.done;
      } else {
        running.set(key, place);
      }
      return place;
    },
    status(now) {
      const all = [...tasks.values()];
      const done = all.reduce((n, t) => n + t.done, 0);
      const total = all.reduce((n, t) => n + t.toRun, 0);
      const elapsedMs = Math.max(0, now - startedAt);
      return {
        running: [...running.values()],
        done,
        total,
        elapsedMs,
        leftMs: estimateLeftMs({ elapsedMs, done, left: total - done }),
      };
    },
  };
}
