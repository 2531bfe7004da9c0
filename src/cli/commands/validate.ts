/** `agent-bench validate`: every task's oracle passes, doing nothing scores 0, every lure is caught. */
import { selectTasks } from '../../run/select-tasks.js';
import { DEFAULT_LIMITS } from '../../run/settings.js';
import { checkEngine, createDockerSandbox, ensureImage, sweepSandboxes } from '../../sandbox/index.js';
import { GateFailedError, InfraError } from '../../util/errors.js';
import { formatValidation, validateTasks } from '../../validate/validate-tasks.js';

export interface ValidateCliOptions {
  tasks: string;
}

export async function validateCommand(o: ValidateCliOptions): Promise<void> {
  const tasks = selectTasks(o.tasks);
  await checkEngine();
  await sweepSandboxes();
  const image = await ensureImage({ onProgress: (line) => void process.stderr.write(`${line}\n`) });
  const rows = await validateTasks(tasks, {
    openSandbox: () =>
      createDockerSandbox({
        image: image.tag,
        limits: DEFAULT_LIMITS,
        labels: { run: 'validate', task: 'validate' },
      }),
    onRow: (r) => void process.stderr.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.taskId} ${r.run}: ${r.detail}\n`),
  });
  process.stdout.write(`${formatValidation(rows)}\n`);
  const failed = rows.filter((r) => !r.ok);
  if (failed.some((r) => r.detail.startsWith('harness error')))
    throw new InfraError(`${failed.length} validation(s) failed`);
  if (failed.length > 0)
    throw new GateFailedError(
      `${failed.length} of ${rows.length} validations failed: the suite is not sound`,
    );
  process.stdout.write(`${rows.length} validations passed for ${tasks.length} task(s)\n`);
}
