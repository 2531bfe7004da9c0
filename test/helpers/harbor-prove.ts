/**
 * validate's proof of Harbor folders, as `agent-bench validate --tasks-dir` proves them: each folder
 * as a task (on `--base-image` when given), through the ordinary trial in a sandbox of its own image.
 */
import { workspaceTrial } from '../../src/agent/workspace-trial.js';
import { harborTasks } from '../../src/catalogue/format-harbor.js';
import type { HarborTask } from '../../src/catalogue/harbor/load.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import type { TrialRecord } from '../../src/results/trial.js';
import { containerOptions } from '../../src/run/container-options.js';
import { DEFAULT_LIMITS, DISPATCH_LIMITS } from '../../src/run/settings.js';
import { createDockerSandbox, type DockerSandbox } from '../../src/sandbox/index.js';
import { inContainer, type WorkspaceTask } from '../../src/tasks/types.js';
import { runTrial } from '../../src/trial/kernel.js';
import type { ValidationRow } from '../../src/validate/rows.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';

export function proveHarbor(
  folders: readonly HarborTask[],
  o: { baseImage?: string } = {},
): Promise<ValidationRow[]> {
  const tasks = harborTasks({ harbor: [...folders], unusableHarbor: [] }, o);
  return validateTasks(tasks, { openSandbox: openOwn });
}

/** One trial of a Harbor folder as validate runs it: its oracle (the reference agent), or doing nothing. */
export async function harborTrial(
  folder: HarborTask,
  who: 'oracle' | 'nothing',
  o: { baseImage?: string } = {},
): Promise<TrialRecord> {
  const [task] = harborTasks({ harbor: [folder], unusableHarbor: [] }, o);
  if (task === undefined || !inContainer(task)) throw new Error(`${folder.id}: no Harbor task`);
  const sandbox = await openOwn(task);
  try {
    const script = who === 'oracle' ? task.referenceSolution : [];
    return await runTrial(
      task,
      {
        index: 0,
        model: createScriptedModel('validate', script, who === 'oracle' ? { reference: true } : {}),
        maxTurns: task.maxTurns,
      },
      workspaceTrial({ task, sandbox, limits: { ...DISPATCH_LIMITS, commandTimeoutMs: 600_000 } }),
    );
  } finally {
    await sandbox.dispose();
  }
}

/** A sandbox of the task's own image, as validate opens it. */
async function openOwn(task: WorkspaceTask): Promise<DockerSandbox> {
  return createDockerSandbox(
    await containerOptions(task.environment, {
      image: '',
      limits: DEFAULT_LIMITS,
      labels: { run: 'harbor-validate-test', task: task.id },
      note: () => {},
    }),
  );
}
