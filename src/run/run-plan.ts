/**
 * What a run will run: each task once per condition, condition by condition, and the line that
 * announces it. Pure, so the counting is tested without a model or an engine.
 */
import type { RunCondition } from '../results/condition.js';
import type { ShardPlan } from './shard-plan.js';

/** One task under one condition: what a task run is opened from. */
export interface RunUnit<T> {
  task: T;
  condition: RunCondition;
  /** The task's place among the run's tasks (0-based): the adversarial condition deals classes by it. */
  position: number;
}

export interface RunPlan<T> {
  units: RunUnit<T>[];
  /** Trials this machine will run (a shard: its own trials of each task, under every condition). */
  trials: number;
}

export function planRun<T extends { id: string; kind: string }>(
  tasks: readonly T[],
  conditions: readonly RunCondition[],
  k: number,
  shard?: Pick<ShardPlan, 'trials'>,
): RunPlan<T> {
  // Every task under every condition: a dialogue task's domain tools get faults and payloads too.
  const units = conditions.flatMap((condition) =>
    tasks.map((task, position) => ({ task, condition, position })),
  );
  return {
    units,
    trials: shard === undefined ? units.length * k : shard.trials * conditions.length,
  };
}

/** `Running 3 task(s) under 2 condition(s) × k=5 (30 trials) with M, 2 at a time.` */
export function runPlanLine(o: {
  tasks: number;
  conditions: readonly RunCondition[];
  k: number;
  trials: number;
  model: string;
  parallel: number;
}): string {
  const under =
    o.conditions.length === 1 && o.conditions[0]?.name === 'clean'
      ? ''
      : ` under ${o.conditions.length} condition(s)`;
  const trials = `${o.trials} trial${o.trials === 1 ? '' : 's'}`;
  return `Running ${o.tasks} task(s)${under} × k=${o.k} (${trials}) with ${o.model}, ${o.parallel} at a time.`;
}
