/** `agent-bench validate`: every task's oracle passes, doing nothing scores 0, every lure is caught. */
import { DEFAULT_LIMITS } from '../../run/settings.js';
import { checkEngine, createDockerSandbox, ensureImage, sweepSandboxes } from '../../sandbox/index.js';
import { loadFlagCode } from '../../tasks/folder/flag-code.js';
import { GateFailedError, InfraError, InternalError, UsageError } from '../../util/errors.js';
import { formatValidation, validateTasks } from '../../validate/validate-tasks.js';
import { selectWithSkills } from '../select-tasks.js';

export interface ValidateCliOptions {
  tasks: string;
  /** Skill folders whose manifests to prove satisfiable (their reference_solution is the oracle). */
  skillDir?: string[];
  /** Task folders (repeatable `--tasks-dir`) to prove sound. */
  tasksDir?: string[];
}

export async function validateCommand(o: ValidateCliOptions): Promise<void> {
  const tasks = selectWithSkills({
    tasks: o.tasks,
    skillDirs: o.skillDir ?? [],
    skillAb: false,
    tasksDirs: o.tasksDir ?? [],
  });
  await loadFlagCode(tasks);
  const unprovable = tasks.filter((t) => t.skillDigest !== undefined && t.referenceSolution.length === 0);
  if (unprovable.length > 0)
    throw new UsageError(
      `${unprovable.map((t) => t.id).join(', ')}: no reference_solution in bench_manifest.json; add one (a list of tool calls that solves the task) to validate it`,
    );
  // Dialogue tasks run in the harness: validating only those needs no engine.
  const image = tasks.some((t) => t.dialogue === undefined) ? await engineImage() : null;
  const rows = await validateTasks(tasks, {
    openSandbox: (task) => {
      if (image === null) throw new InternalError(`${task.id}: a sandbox was asked for without an engine`);
      return createDockerSandbox({
        image: image.tag,
        limits: DEFAULT_LIMITS,
        labels: { run: 'validate', task: 'validate' },
        ...(task.mounts === undefined ? {} : { mounts: task.mounts }),
      });
    },
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

async function engineImage(): Promise<{ tag: string }> {
  await checkEngine();
  await sweepSandboxes();
  return ensureImage({ onProgress: (line) => void process.stderr.write(`${line}\n`) });
}
