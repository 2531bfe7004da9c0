/** One trial of a workspace task through the trial kernel, with the sandbox's responder: the call tests make. */

import type { DispatchLimits } from '../../src/agent/tools/tool.js';
import { workspaceTrial } from '../../src/agent/workspace-trial.js';
import type { TrialRecord } from '../../src/results/trial.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import type { WorkspaceTask } from '../../src/tasks/types.js';
import { runTrial, type TrialRequest } from '../../src/trial/kernel.js';

export function runWorkspaceTrial(
  o: TrialRequest & {
    task: WorkspaceTask;
    sandbox: Sandbox;
    limits: DispatchLimits;
    artifacts?: { dir: string; relative: string };
  },
): Promise<TrialRecord> {
  const { task, sandbox, limits, artifacts, ...request } = o;
  return runTrial(
    task,
    request,
    workspaceTrial({ task, sandbox, limits, ...(artifacts === undefined ? {} : { artifacts }) }),
  );
}
