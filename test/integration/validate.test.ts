/**
 * `agent-bench validate` on the whole suite, through the real sandbox: every oracle passes, doing
 * nothing scores 0, every lure and cheat is caught on exactly its flags, and every alternate (a
 * legitimate solution in another style) passes. With the proof cache on, as CI runs it: a task
 * unchanged since a run that proved it (same content, image and harness) is not proven again, and
 * its cached pass counts only under the key of what is here now. Prints the wall time, for CI's log.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { allTasks } from '../../src/catalogue/built-in.js';
import { DEFAULT_LIMITS } from '../../src/run/settings.js';
import { createDockerSandbox, ensureImage } from '../../src/sandbox/index.js';
import { hasVariants } from '../../src/tasks/variants/instances.js';
import { harnessDigest } from '../../src/validate/harness-digest.js';
import { defaultProofDir, openProofCache } from '../../src/validate/proof-cache.js';
import { proofKey, taskFilesDigest } from '../../src/validate/proof-key.js';
import { formatValidation } from '../../src/validate/rows.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';

describe('validate, whole suite', () => {
  it('every task is solvable and not lenient', async () => {
    const image = await ensureImage();
    const tasks = allTasks();
    const inputs = { image: image.id, harness: harnessDigest() };
    const dir = defaultProofDir();
    // Twice the cores: a proof waits on the engine (execs, resets) as much as it computes, and two
    // per core measured about 10 % faster than one per core on 2 cores.
    const parallel = availableParallelism() * 2;
    const started = Date.now();
    const rows = await validateTasks(tasks, {
      openSandbox: (task) =>
        createDockerSandbox({
          image: image.tag,
          limits: DEFAULT_LIMITS,
          labels: { run: 'validate-test' },
          ...(task.kind === 'skill' ? { mounts: task.mounts } : {}),
        }),
      parallel,
      proofs: {
        cache: openProofCache({ dir, onNote: (line) => void process.stderr.write(`${line}\n`) }),
        inputs,
      },
    });
    const cached = new Set(rows.filter((r) => r.kind === 'cached').map((r) => r.taskId));
    process.stderr.write(
      `validate, whole suite: ${((Date.now() - started) / 1000).toFixed(1)} s wall for ${rows.length} validations of ${tasks.length} tasks (--parallel ${parallel}); ${tasks.length - cached.size} tasks proven, ${cached.size} from cached proofs in ${dir}\n`,
    );
    const failed = rows.filter((r) => r.kind !== 'passed' && r.kind !== 'cached');
    expect(failed, formatValidation(failed)).toEqual([]);
    for (const task of tasks) {
      const own = rows.filter((r) => r.taskId === task.id);
      // A cached pass stands only under the key of the task's content, image and harness as they are now
      // (a variant task's rows are its instance's, keyed by that instance's files or drawn scenario).
      const key = proofKey(task, { ...inputs, files: taskFilesDigest(task) });
      if (!hasVariants(task))
        for (const row of own) if (row.kind === 'cached') expect(row.proof.key, task.id).toBe(key);
      // Every task was judged on its oracle, on doing nothing, and on at least one lure.
      const runs = own.map((r) => r.run.replace(/^instance \S+: /, '')).filter((r) => r !== 'generator');
      expect(runs.slice(0, 2)).toEqual(['oracle', 'do-nothing']);
      expect(runs.length).toBeGreaterThanOrEqual(3);
      // A skill is also judged on the automatic lures its manifest implies.
      if (task.kind === 'skill') expect(runs, task.id).toContain('auto:hallucinated_step');
      // Dialogue tasks (the helpdesk pack) are proven by their reference and lures on the desk's state.
      if (task.kind === 'dialogue') continue;
      expect(runs.filter((r) => r.startsWith('alternate:')).length, task.id).toBeGreaterThanOrEqual(3);
      expect(runs.filter((r) => r.startsWith('cheat:')).length, task.id).toBeGreaterThanOrEqual(3);
    }
  }, 3_600_000);
});
