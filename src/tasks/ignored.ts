/** The paths a task's tamper check and artifact export leave alone. */
import type { DeclaredWrites, WorkspaceParts } from './types.js';

/**
 * Caches test runners and interpreters create on their own when a model runs them: never the
 * model's tampering, in any task, unless the task watches them (`watchToolCaches`), e.g. a task
 * about cleaning them up. A planted __pycache__/*.pyc cannot fake the checks either: the harness
 * runs Python with its own bytecode prefix (src/scoring/pytest-run.ts).
 */
const TOOL_CACHES: readonly string[] = ['__pycache__', '.pytest_cache', '**/node_modules/.cache'];

export function ignoredPaths(task: Pick<WorkspaceParts, 'ignored' | 'watchToolCaches'>): string[] {
  return task.watchToolCaches === true ? [...task.ignored] : [...new Set([...TOOL_CACHES, ...task.ignored])];
}

/** What a task declares the agent may write, and the paths it leaves alone, for the checks. */
export function declaredWrites(
  task: Pick<WorkspaceParts, 'allowedWrites' | 'ignored' | 'watchToolCaches'>,
): DeclaredWrites {
  return { allowed: task.allowedWrites, ignored: ignoredPaths(task) };
}
