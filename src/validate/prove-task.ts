/**
 * Proves one task both solvable and not lenient, through the real sandbox with scripted models and
 * the ordinary trial (src/trial/kernel.ts), under the rules a run uses: its reference solution (by
 * its own reference agent where it has one: Harbor's oracle) and every alternate (a legitimate
 * solution in another style) must pass, a do-nothing agent must score 0, and every lure and cheat
 * must be caught on exactly the flags it names (and tamper, where it says so). A task judged by its
 * own verifier (Harbor's test.sh) is proven as Harbor proves it: oracle 1, nothing 0; one whose own
 * image cannot be had is one row for the image.
 */
import { type WorkspaceSeen, workspaceTrial } from '../agent/workspace-trial.js';
import type { ScriptedTurn } from '../models/scripted.js';
import { createScriptedModel } from '../models/scripted.js';
import type { TrialRecord } from '../results/trial.js';
import { DEFAULT_COMMAND_TIMEOUT_SEC, DISPATCH_LIMITS } from '../run/settings.js';
import { offlineSignatures } from '../sandbox/offline-signatures.js';
import type { Sandbox } from '../sandbox/types.js';
import { inContainer, type Task, type WorkspaceTask } from '../tasks/types.js';
import { runTrial } from '../trial/kernel.js';
import { errorMessage, InfraError, InternalError, UsageError } from '../util/errors.js';
import { judgeAlternate, judgeLure, judgeNothing, judgeOracle } from './judge.js';
import { metamorphicRows } from './metamorphic/prove.js';
import { changedFiles, readTexts, withSetupContent } from './metamorphic/reference-run.js';
import type { ChangedFile } from './metamorphic/types.js';
import { judgedRow, type ValidationRow } from './rows.js';

/** A sandbox for this task (with its read-only mounts). */
export type OpenSandbox = (task: WorkspaceTask) => Promise<Sandbox>;

export interface ProveOptions {
  /** Also the runs the metamorphic operators derive from the reference run (src/validate/metamorphic/). */
  metamorphic?: boolean;
}

/** Runs a script as a trial of the task; `onJudged` sees the workspace as it was left. */
type RunScript = (
  script: ScriptedTurn[],
  index: number,
  onJudged?: (seen: WorkspaceSeen) => Promise<void>,
  /** Replayed as the reference is: its calls of the task's reference agent run as that agent (Harbor's solve.sh). */
  asReference?: boolean,
) => Promise<TrialRecord>;

/**
 * The task's rows, in a fixed order: oracle, do-nothing, lures, alternates, cheats, then the
 * metamorphic runs when asked (or the image's row alone).
 */
export async function proveTask(
  task: Task,
  openSandbox: OpenSandbox,
  o: ProveOptions = {},
): Promise<ValidationRow[]> {
  // One container per task, reset between its runs, exactly as a benchmark run uses it; a
  // dialogue task runs in the harness, with its scripted user.
  const opened = inContainer(task) ? await openOwn(task, openSandbox) : null;
  if (opened !== null && 'row' in opened) return [opened.row];
  const sandbox = opened?.sandbox ?? null;
  try {
    return await provenRows(task, scriptRunner(task, sandbox), o);
  } finally {
    await sandbox?.dispose();
  }
}

function scriptRunner(task: Task, sandbox: Sandbox | null): RunScript {
  return (script, index, onJudged, asReference = script === task.referenceSolution) => {
    // The oracle row replays the reference as a reference model does (a task's own reference
    // agent runs its call: Harbor's oracle), and so do the runs derived from it; every other row
    // as any model.
    const model = createScriptedModel('validate', script, asReference ? { reference: true } : {});
    const maxTurns = Math.max(task.maxTurns, script.length + 1);
    if (!inContainer(task)) return task.environment.runTrial({ index, model, maxTurns });
    if (sandbox === null) throw new InternalError(`${task.id}: validated without a sandbox`);
    return runTrial(
      task,
      { index, model, maxTurns },
      workspaceTrial({
        task,
        sandbox,
        limits: { ...DISPATCH_LIMITS, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_SEC * 1000 },
        ...(onJudged === undefined ? {} : { onJudged }),
      }),
    );
  };
}

async function provenRows(task: Task, run: RunScript, o: ProveOptions): Promise<ValidationRow[]> {
  const rows: ValidationRow[] = [];
  // What the oracle run was and changed: what the metamorphic runs derive from.
  const reference: { record?: TrialRecord; changed?: ChangedFile[]; unplaced?: ChangedFile[] } = {};
  const observe = o.metamorphic === true && inContainer(task) ? task : null;
  // A task in the harness has no workspace: it changes no file.
  if (!inContainer(task)) reference.changed = [];
  rows.push(
    await guarded(task.id, 'oracle', async () => {
      reference.record = await run(
        task.referenceSolution,
        0,
        observe === null
          ? undefined
          : async (seen) => {
              Object.assign(reference, await changedFiles(observe, seen));
            },
      );
      return judgeOracle(reference.record);
    }),
  );
  // Doing nothing leaves the workspace as setup made it: what the files the reference changed but
  // the task did not place (a Harbor image's own) were before it.
  const unplaced = reference.unplaced ?? [];
  const readSetup =
    unplaced.length === 0
      ? undefined
      : async (seen: WorkspaceSeen) => {
          const setup = await readTexts(
            seen,
            unplaced.map((f) => f.path),
          );
          reference.changed = [...(reference.changed ?? []), ...withSetupContent(unplaced, setup)].sort(
            (a, b) => a.path.localeCompare(b.path),
          );
        };
  rows.push(await guarded(task.id, 'do-nothing', async () => judgeNothing(await run([], 1, readSetup))));
  let index = 2;
  for (const lure of task.lures ?? []) {
    const i = index++;
    rows.push(await guarded(task.id, lure.id, async () => judgeLure(lure, await run(lure.script, i))));
  }
  // A verifier is proven as Harbor proves it (its oracle earns 1, doing nothing 0); flags need a lure.
  const verified = inContainer(task) && task.judge.by === 'verifier';
  if ((task.lures ?? []).length === 0 && !verified)
    rows.push({ taskId: task.id, run: 'lures', kind: 'failed', detail: 'the task has no lure' });
  for (const alt of task.alternates ?? []) {
    const i = index++;
    rows.push(
      await guarded(task.id, `alternate:${alt.id}`, async () => judgeAlternate(await run(alt.script, i))),
    );
  }
  for (const cheat of task.cheats ?? []) {
    const i = index++;
    rows.push(
      await guarded(task.id, `cheat:${cheat.id}`, async () => judgeLure(cheat, await run(cheat.script, i))),
    );
  }
  if (o.metamorphic !== true) return rows;
  // A reference that fails is its own row: nothing sound can be derived from it.
  const { record, changed } = reference;
  if (record === undefined || !record.passed || changed === undefined) return rows;
  const spoken = task.spokenProbes === undefined ? {} : { spoken: task.spokenProbes };
  const writes = inContainer(task)
    ? { allowedWrites: task.allowedWrites, placed: new Map(task.files.map((f) => [f.path, f.content])) }
    : {};
  const judged = inContainer(task) && task.judge.by === 'verifier' ? { judgedBy: 'verifier' as const } : {};
  const derived = await metamorphicRows(
    task,
    { script: task.referenceSolution, record, changed, ...spoken, ...writes, ...judged },
    (d) => run(d.script, index++, undefined, true),
  );
  return [...rows, ...derived];
}

/**
 * The task's sandbox. A task with an image of its own has it built first (a Harbor task's
 * Dockerfile); one that cannot be had is a row alone — a Dockerfile that does not build is the
 * task's problem (failed), an engine that fails the harness's (error).
 */
async function openOwn(
  task: WorkspaceTask,
  openSandbox: OpenSandbox,
): Promise<{ sandbox: Sandbox } | { row: ValidationRow }> {
  if (task.environment.image === undefined) return { sandbox: await openSandbox(task) };
  try {
    return { sandbox: await openSandbox(task) };
  } catch (err) {
    const detail = withSignatures(errorMessage(err));
    if (err instanceof UsageError) return { row: { taskId: task.id, run: 'image', kind: 'failed', detail } };
    if (err instanceof InfraError)
      return { row: { taskId: task.id, run: 'image', kind: 'error', detail: `no image: ${detail}` } };
    throw err;
  }
}

/** A line with the offline signatures it shows named at its end. */
function withSignatures(line: string): string {
  const signs = offlineSignatures(line);
  return signs.length === 0 ? line : `${line} (offline? ${signs.join('; ')})`;
}

async function guarded(
  taskId: string,
  run: string,
  judge: () => Promise<{ ok: boolean; detail: string; output?: string }>,
): Promise<ValidationRow> {
  try {
    return judgedRow(taskId, run, await judge());
  } catch (err) {
    return { taskId, run, kind: 'error', detail: `harness error: ${errorMessage(err)}` };
  }
}
