/** `agent-bench validate`: every task's oracle passes, doing nothing scores 0, every lure is caught. */
import { DEFAULT_LIMITS } from '../../run/settings.js';
import { checkEngine, createDockerSandbox, ensureImage, sweepSandboxes } from '../../sandbox/index.js';
import { loadFlagCode } from '../../tasks/folder/flag-code.js';
import type { HarborTask } from '../../tasks/folder/harbor/load.js';
import { proveHarborTasks } from '../../tasks/folder/harbor/prove.js';
import { GateFailedError, InfraError, InternalError, UsageError } from '../../util/errors.js';
import { formatValidation, type ValidationRow, validateTasks } from '../../validate/validate-tasks.js';
import { type Split, selectWithSkills } from '../select-tasks.js';

export interface ValidateCliOptions {
  tasks: string;
  /** Skill folders whose manifests to prove satisfiable (their reference_solution is the oracle). */
  skillDir?: string[];
  /** Task folders (repeatable `--tasks-dir`) to prove sound. */
  tasksDir?: string[];
  /** `--split dev|holdout|all`. */
  split?: Split;
  /** Harbor tasks' Dockerfiles built on this image instead of their FROM (offline machines). */
  baseImage?: string;
}

export async function validateCommand(o: ValidateCliOptions): Promise<void> {
  const harbor: HarborTask[] = [];
  const tasks = selectWithSkills({
    tasks: o.tasks,
    skillDirs: o.skillDir ?? [],
    skillAb: false,
    tasksDirs: o.tasksDir ?? [],
    ...(o.split === undefined ? {} : { split: o.split }),
    harbor,
  });
  if (o.baseImage !== undefined && harbor.length === 0)
    throw new UsageError(
      '--base-image builds Harbor tasks on another image: give their folder with --tasks-dir',
    );
  await loadFlagCode(tasks);
  const unprovable = tasks.filter((t) => t.kind === 'skill' && t.referenceSolution.length === 0);
  if (unprovable.length > 0)
    throw new UsageError(
      `${unprovable.map((t) => t.id).join(', ')}: no reference_solution in bench_manifest.json; add one (a list of tool calls that solves the task) to validate it`,
    );
  // Dialogue tasks run in the harness: validating only those needs no engine.
  const image = tasks.some((t) => t.kind !== 'dialogue') ? await engineImage() : null;
  if (harbor.length > 0 && image === null) {
    await checkEngine();
    await sweepSandboxes();
  }
  const onRow = (r: ValidationRow): void =>
    void process.stderr.write(`${r.ok ? 'ok  ' : 'FAIL'} ${r.taskId} ${r.run}: ${r.detail}\n`);
  const ours = await validateTasks(tasks, {
    openSandbox: (task) => {
      if (image === null) throw new InternalError(`${task.id}: a sandbox was asked for without an engine`);
      return createDockerSandbox({
        image: image.tag,
        limits: DEFAULT_LIMITS,
        labels: { run: 'validate', task: 'validate' },
        ...(task.kind === 'skill' ? { mounts: task.mounts } : {}),
      });
    },
    onRow,
  });
  const rows = [
    ...ours,
    ...(await proveHarborTasks(harbor, {
      ...(o.baseImage === undefined ? {} : { baseImage: o.baseImage }),
      onProgress: (line) => void process.stderr.write(`${line}\n`),
      onRow,
    })),
  ];
  process.stdout.write(`${formatValidation(rows)}\n`);
  const failed = rows.filter((r) => !r.ok);
  if (failed.some((r) => r.detail.startsWith('harness error')))
    throw new InfraError(`${failed.length} validation(s) failed`);
  if (failed.length > 0)
    throw new GateFailedError(
      `${failed.length} of ${rows.length} validations failed: the suite is not sound`,
    );
  process.stdout.write(`${rows.length} validations passed for ${tasks.length + harbor.length} task(s)\n`);
}

async function engineImage(): Promise<{ tag: string }> {
  await checkEngine();
  await sweepSandboxes();
  return ensureImage({ onProgress: (line) => void process.stderr.write(`${line}\n`) });
}
