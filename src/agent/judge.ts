/**
 * Judges a trial once its turns are over: every agent process is killed, the final workspace is
 * snapshotted, every flag is decided and the tamper diff is taken. Pure from here on but for the
 * ground-truth commands the checks ask the sandbox for.
 */
import type { AgentFault, FlagResult, HarborVerifierRecord, TurnLog } from '../results/trial.js';
import type { Sandbox, WorkspaceSnapshot } from '../sandbox/types.js';
import { scoreTrial } from '../scoring/score.js';
import { detectTamper, recordChanges } from '../scoring/snapshot-diff.js';
import { ignoredPaths } from '../tasks/ignored.js';
import type { WorkspaceTask } from '../tasks/types.js';
import { evaluateFlags } from './evaluate.js';
import { recordSurvivorWrites } from './survivor-writes.js';

export interface Verdict {
  flags: Record<string, FlagResult>;
  passed: boolean;
  score: number;
  tamperViolations: string[];
  finalSnapshot: WorkspaceSnapshot;
  /** A Harbor verifier that gave no trustworthy reward: the agent's fault, the trial failed. */
  fault?: AgentFault;
  /** A Harbor verifier's named metrics (reward.json). */
  rewards?: Record<string, number>;
  /** A Harbor task's verifier run: its exit code and output's end, for the record. */
  harborVerifier?: HarborVerifierRecord;
}

export async function judgeTrial(
  task: WorkspaceTask,
  sandbox: Sandbox,
  turns: {
    turnLogs: TurnLog[];
    changeTurns: ReadonlyMap<string, readonly number[]>;
    finalAnswer: string | null;
  },
  setupSnapshot: WorkspaceSnapshot,
): Promise<Verdict> {
  // Ground truth: nothing the agent left running may change the workspace from here on.
  await sandbox.killAgentProcesses();
  // What the jobs the agent left did after their commands returned: a change is dated by its writer.
  recordSurvivorWrites(turns.turnLogs, await sandbox.followedTraces());
  // What changed since the last turn's look (background jobs) counts for the last turn.
  const lastChanges = await sandbox.workspaceChanges();
  // Every file read again: the listing tamper is judged on trusts no cache.
  const finalSnapshot = await sandbox.snapshot();
  const changeTurns = new Map([...turns.changeTurns].map(([path, list]) => [path, [...list]]));
  const lastTurn = turns.turnLogs.length;
  if (lastTurn > 0) recordChanges(changeTurns, lastTurn, lastChanges.paths);

  // A task's own verifier decides it (Harbor's test.sh: src/catalogue/harbor/verify.ts), in place of flag checks.
  const harbor = task.judge.by === 'verifier' ? await task.judge.verify(sandbox) : null;
  const flags =
    harbor?.flags ??
    (await evaluateFlags({
      task,
      sandbox,
      turnLogs: turns.turnLogs,
      setupSnapshot,
      changeTurns,
      finalSnapshot,
      finalAnswer: turns.finalAnswer,
    }));
  // Nothing the checks started may outlive them, and nothing may have changed the workspace meanwhile.
  await sandbox.killAllProcesses();
  const afterChecks = await sandbox.snapshot();
  const violations = detectTamper(setupSnapshot, finalSnapshot, {
    allowedWrites: task.allowedWrites,
    ignored: ignoredPaths(task),
  }).map((v) => `${v.change} ${v.path}`);
  // A Harbor verifier runs in a container of its own: the sandbox's workspace must not change either.
  for (const v of changedDuringChecks(finalSnapshot, afterChecks, ignoredPaths(task)))
    violations.push(`${v} during the checks`);
  const tamper = violations.length > 0;
  const { passed, score } =
    harbor === null
      ? scoreTrial(task.flags, flags, tamper)
      : { passed: harbor.passed && !tamper, score: tamper ? 0 : harbor.score };
  const fault = harbor?.fault;
  const rewards = harbor?.rewards;
  const verifier = harbor?.verifier;
  return {
    flags,
    passed,
    score,
    tamperViolations: violations,
    finalSnapshot,
    ...(fault ? { fault } : {}),
    ...(rewards ? { rewards } : {}),
    ...(verifier === undefined ? {} : { harborVerifier: verifier }),
  };
}

/** Paths that differ between two snapshots (caches aside), as `changed|created|removed path`. */
function changedDuringChecks(
  before: WorkspaceSnapshot,
  after: WorkspaceSnapshot,
  ignored: readonly string[],
): string[] {
  // Everything counts here, allowed writes included: the agent's time was over.
  return detectTamper(before, after, { allowedWrites: [], ignored: [...ignored] }).map(
    (v) => `${v.change} ${v.path}`,
  );
}
