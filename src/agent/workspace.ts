import { tool } from '../sandbox/tools.js';
import type { Sandbox, WorkspaceSnapshot } from '../sandbox/types.js';
import type { WorkspaceTask } from '../tasks/types.js';
import { InfraError } from '../util/errors.js';

/** Places the task's files, runs its setup commands, and returns the setup snapshot tamper is judged against. */
export async function prepareWorkspace(sandbox: Sandbox, task: WorkspaceTask): Promise<WorkspaceSnapshot> {
  await sandbox.putFiles(
    task.files.map((f) => ({
      path: f.path,
      content: f.content,
      ...(f.mode === undefined ? {} : { mode: f.mode }),
    })),
    { owner: 'agent' },
  );
  for (const command of task.setupCommands ?? []) {
    // The harness's bash, by path: a Harbor task's image may have none.
    const r = await sandbox.exec([tool('bash'), '-c', command], {
      user: 'agent',
      cwd: '/workspace',
      timeoutMs: 120_000,
    });
    if (r.exitCode !== 0) {
      throw new InfraError(
        `setup of task ${task.id} failed: \`${command}\` exited ${r.exitCode}: ${r.stderr.trim().slice(0, 300)}`,
      );
    }
  }
  // Setup commands may leave processes behind; none may outlive the setup into the trial's record.
  await sandbox.killAgentProcesses();
  return sandbox.snapshot();
}
