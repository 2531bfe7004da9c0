/**
 * Decides every flag of a trial. Checks see the record and ask the sandbox for ground truth through
 * one narrow interface; hidden files are copied in only now, after every agent process is dead.
 */

import type { FlagResult, TurnLog } from '../results/trial.js';
import { type ExecResult, HARNESS_DIR, type Sandbox, type WorkspaceSnapshot } from '../sandbox/types.js';
import { changeTurns, firstChangeTurns } from '../scoring/snapshot-diff.js';
import type { CheckContext, GroundTruth, Task } from '../tasks/types.js';
import { errorMessage } from '../util/errors.js';

const GROUND_TRUTH_TIMEOUT_MS = 120_000;

export interface EvaluationInput {
  task: Task;
  sandbox: Sandbox;
  turnLogs: TurnLog[];
  setupSnapshot: WorkspaceSnapshot;
  perTurn: { turn: number; snapshot: WorkspaceSnapshot }[];
  finalSnapshot: WorkspaceSnapshot;
  finalAnswer: string | null;
}

export async function evaluateFlags(input: EvaluationInput): Promise<Record<string, FlagResult>> {
  const { task, sandbox } = input;
  if (task.hiddenFiles !== undefined && task.hiddenFiles.length > 0) {
    await sandbox.putFiles(
      task.hiddenFiles.map((f) => ({ path: `${HARNESS_DIR}/${f.path}`, content: f.content })),
      { owner: 'root' },
    );
  }
  const ctx: CheckContext = {
    turns: input.turnLogs,
    calls: input.turnLogs.flatMap((t) => t.tool_calls.map((c) => ({ ...c, turn: t.turn }))),
    setupSnapshot: input.setupSnapshot,
    finalSnapshot: input.finalSnapshot,
    firstChangeTurn: firstChangeTurns(input.setupSnapshot, input.perTurn),
    changeTurns: changeTurns(input.setupSnapshot, input.perTurn),
    finalAnswer: input.finalAnswer,
    groundTruth: groundTruthFor(sandbox),
  };
  const results: Record<string, FlagResult> = {};
  for (const flag of task.flags) {
    try {
      const outcome = await flag.check(ctx);
      results[flag.id] = outcome.reached
        ? { reached: true, turn: outcome.turn, kind: flag.kind }
        : {
            reached: false,
            turn: null,
            kind: flag.kind,
            ...(outcome.detail === undefined ? {} : { detail: outcome.detail }),
          };
    } catch (err) {
      // A check that throws is a harness bug; the flag is not reached and the reason is kept.
      results[flag.id] = {
        reached: false,
        turn: null,
        kind: flag.kind,
        detail: `check error: ${errorMessage(err)}`,
      };
    }
  }
  return results;
}

function groundTruthFor(sandbox: Sandbox): GroundTruth {
  const cache = new Map<string, Promise<ExecResult>>();
  return {
    run(command) {
      let pending = cache.get(command);
      if (pending === undefined) {
        pending = sandbox.exec(['bash', '-c', command], {
          user: 'root',
          cwd: '/workspace',
          timeoutMs: GROUND_TRUTH_TIMEOUT_MS,
          env: { PYTHONDONTWRITEBYTECODE: '1' },
        });
        cache.set(command, pending);
      }
      return pending;
    },
    async readFile(path) {
      const abs = path.startsWith('/') ? path : `/workspace/${path}`;
      const files = await sandbox.getFiles([abs]);
      const bytes = files.get(abs);
      return bytes === undefined ? null : bytes.toString('utf8');
    },
  };
}
