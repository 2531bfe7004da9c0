/**
 * Decides every flag of a trial. Checks see the record and ask the sandbox for ground truth through
 * one narrow interface. Ground truth never runs the agent's code as root: the first command stages a
 * copy of the workspace (root-owned, read-only to the checker), places the hidden files next to it,
 * and every command runs as the `checker` user on that copy, after every other process in the
 * sandbox was killed. Task files and check commands name the workspace /workspace; here that means
 * the copy.
 */

import type { FlagResult, TurnLog } from '../results/trial.js';
import { type ExecResult, type Sandbox, WORKSPACE_DIR, type WorkspaceSnapshot } from '../sandbox/types.js';
import { creditAbsences } from '../scoring/score.js';
import { firstTurns } from '../scoring/snapshot-diff.js';
import { declaredWrites } from '../tasks/ignored.js';
import {
  CHECK_TIMEOUT_SEC,
  type CheckContext,
  type GroundTruth,
  HIDDEN_DIR,
  type WorkspaceTask,
} from '../tasks/types.js';
import { instanceValuesOf } from '../tasks/variants/instances.js';
import { errorMessage, InfraError } from '../util/errors.js';

export interface EvaluationInput {
  task: WorkspaceTask;
  sandbox: Sandbox;
  turnLogs: TurnLog[];
  setupSnapshot: WorkspaceSnapshot;
  /** Path → every turn after which it had changed (drive.ts, judge.ts). */
  changeTurns: ReadonlyMap<string, readonly number[]>;
  finalSnapshot: WorkspaceSnapshot;
  finalAnswer: string | null;
}

export async function evaluateFlags(input: EvaluationInput): Promise<Record<string, FlagResult>> {
  const { task, sandbox } = input;
  const ctx: CheckContext = {
    turns: input.turnLogs,
    calls: input.turnLogs.flatMap((t) => t.tool_calls.map((c) => ({ ...c, turn: t.turn }))),
    setupSnapshot: input.setupSnapshot,
    finalSnapshot: input.finalSnapshot,
    setupFiles: new Map([...task.mountedFiles, ...task.files].map((f) => [f.path, f.content])),
    firstChangeTurn: firstTurns(input.changeTurns),
    changeTurns: input.changeTurns,
    finalAnswer: input.finalAnswer,
    declaredWrites: declaredWrites(task),
    groundTruth: groundTruthFor(sandbox, task),
    instance: instanceValuesOf(task),
  };
  const results: Record<string, FlagResult> = {};
  for (const flag of task.flags) {
    try {
      const outcome = await flag.check(ctx);
      results[flag.id] = outcome.reached
        ? {
            reached: true,
            turn: outcome.turn,
            kind: flag.kind,
            ...(outcome.detail === undefined ? {} : { detail: outcome.detail }),
          }
        : {
            reached: false,
            turn: null,
            kind: flag.kind,
            ...(outcome.detail === undefined ? {} : { detail: outcome.detail }),
          };
    } catch (err) {
      // A check the sandbox failed under (container gone, exec refused) says nothing of the
      // model: the trial ends as an error (loop.ts).
      if (err instanceof InfraError) throw err;
      // Any other throw is a check that could not read what it needed (e.g. a file the model
      // removed); the flag is not reached and the reason is kept.
      results[flag.id] = {
        reached: false,
        turn: null,
        kind: flag.kind,
        detail: `check error: ${errorMessage(err)}`,
      };
    }
  }
  return creditAbsences(task.flags, results);
}

function groundTruthFor(sandbox: Sandbox, task: WorkspaceTask): GroundTruth {
  const cache = new Map<string, Promise<ExecResult>>();
  let staged: Promise<string> | null = null;
  const stage = async (): Promise<string> => {
    await sandbox.killAllProcesses();
    const copy = await sandbox.stageForChecks();
    const onCopy = (text: string): string => onStagedCopy(text, copy);
    if (task.hiddenFiles !== undefined && task.hiddenFiles.length > 0)
      await sandbox.putFiles(
        task.hiddenFiles.map((f) => ({ path: `${HIDDEN_DIR}/${f.path}`, content: onCopy(f.content) })),
        { owner: 'root' },
      );
    return copy;
  };
  return {
    run(command) {
      let pending = cache.get(command);
      if (pending === undefined) {
        staged ??= stage();
        pending = staged.then((copy) =>
          sandbox.exec(['bash', '-c', onStagedCopy(command, copy)], {
            user: 'checker',
            cwd: copy,
            timeoutMs: (task.checkTimeoutSec ?? CHECK_TIMEOUT_SEC) * 1000,
            env: { PYTHONDONTWRITEBYTECODE: '1' },
          }),
        );
        cache.set(command, pending);
      }
      return pending;
    },
    async readFile(path) {
      const abs = path.startsWith('/') ? path : `${WORKSPACE_DIR}/${path}`;
      const files = await sandbox.getFiles([abs]);
      const bytes = files.get(abs);
      return bytes === undefined ? null : bytes.toString('utf8');
    },
  };
}

/** /workspace, as a path of its own or a prefix (not /workspace2), means the staged copy. */
function onStagedCopy(text: string, copy: string): string {
  return text.replace(/\/workspace(?![\w.-])/g, copy);
}
