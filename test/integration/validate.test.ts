/**
 * `agent-bench validate` on the whole suite, through the real sandbox: every oracle passes, doing
 * nothing scores 0, every lure and cheat is caught on exactly its flags, and every alternate (a
 * legitimate solution in another style) passes.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/run/settings.js';
import { createDockerSandbox, ensureImage } from '../../src/sandbox/index.js';
import { formatValidation, validateTasks } from '../../src/validate/validate-tasks.js';
import { allTasks } from '../../tasks/index.js';

describe('validate, whole suite', () => {
  it('every task is solvable and not lenient', async () => {
    const image = await ensureImage();
    const tasks = allTasks();
    const rows = await validateTasks(tasks, {
      openSandbox: (task) =>
        createDockerSandbox({
          image: image.tag,
          limits: DEFAULT_LIMITS,
          labels: { run: 'validate-test' },
          ...(task.kind === 'skill' ? { mounts: task.mounts } : {}),
        }),
    });
    const failed = rows.filter((r) => !r.ok);
    expect(failed, formatValidation(failed)).toEqual([]);
    // Every task was judged on its oracle, on doing nothing, and on at least one lure.
    for (const task of tasks) {
      const runs = rows.filter((r) => r.taskId === task.id).map((r) => r.run);
      expect(runs.slice(0, 2)).toEqual(['oracle', 'do-nothing']);
      expect(runs.length).toBeGreaterThanOrEqual(3);
      // Dialogue tasks (the helpdesk pack) are proven by their reference and lures on the desk's state.
      if (task.kind === 'dialogue') continue;
      expect(runs.filter((r) => r.startsWith('alternate:')).length, task.id).toBeGreaterThanOrEqual(3);
      expect(runs.filter((r) => r.startsWith('cheat:')).length, task.id).toBeGreaterThanOrEqual(3);
    }
  }, 3_600_000);
});
