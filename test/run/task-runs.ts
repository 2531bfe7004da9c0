/**
 * Runs tasks as run-bench does (runTasks over createTaskRun) without Docker: the test gives each
 * task's options (its model, its sandboxes), the runner gives the signal.
 */
import type { ResultFile } from '../../src/results/result-file.js';
import { createTaskRun, type TaskRunOptions } from '../../src/run/run-task.js';
import { runTasks } from '../../src/run/run-tasks.js';
import type { Task } from '../../src/tasks/types.js';

export function runInMemory(o: {
  tasks: readonly Task[];
  parallel: number;
  options: (task: Task) => Omit<TaskRunOptions, 'signal'>;
  signal?: AbortSignal;
  onTaskEnd?: (result: ResultFile, path: string) => void;
}): Promise<ResultFile[]> {
  return runTasks({
    tasks: o.tasks,
    parallel: o.parallel,
    open: async (task, signal) => createTaskRun({ ...o.options(task), signal }),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    ...(o.onTaskEnd === undefined ? {} : { onTaskEnd: o.onTaskEnd }),
  });
}
