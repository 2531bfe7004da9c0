/**
 * Proves each task both solvable and not lenient, through the real sandbox with scripted models: its
 * reference solution and every alternate (a legitimate solution in another style) must pass, a
 * do-nothing agent must score 0, and every lure and cheat must be caught on exactly the flags it
 * names (and tamper, where it says so).
 */
import { runTrial } from '../agent/loop.js';
import type { ScriptedTurn } from '../models/scripted.js';
import { createScriptedModel } from '../models/scripted.js';
import type { TrialRecord } from '../results/trial.js';
import { DEFAULT_COMMAND_TIMEOUT_SEC, DISPATCH_LIMITS } from '../run/settings.js';
import type { Sandbox } from '../sandbox/types.js';
import type { Lure, Task, WorkspaceTask } from '../tasks/types.js';
import { errorMessage, InternalError } from '../util/errors.js';

export interface ValidationRow {
  taskId: string;
  /** 'oracle', 'do-nothing', a lure's id, `alternate:<id>` or `cheat:<id>`. */
  run: string;
  ok: boolean;
  /** What was expected and, when not ok, what happened instead. */
  detail: string;
}

export interface ValidateOptions {
  /** A sandbox for this task (with its read-only mounts). */
  openSandbox: (task: WorkspaceTask) => Promise<Sandbox>;
  onRow?: (row: ValidationRow) => void;
}

export async function validateTasks(tasks: readonly Task[], o: ValidateOptions): Promise<ValidationRow[]> {
  const rows: ValidationRow[] = [];
  const add = (row: ValidationRow): void => {
    rows.push(row);
    o.onRow?.(row);
  };
  for (const task of tasks) {
    // One container per task, reset between its runs, exactly as a benchmark run uses it; a
    // dialogue task runs in the harness, with its scripted user.
    const sandbox = task.kind === 'dialogue' ? null : await o.openSandbox(task);
    try {
      const run = (script: ScriptedTurn[], index: number): Promise<TrialRecord> => {
        const model = createScriptedModel('validate', script);
        const maxTurns = Math.max(task.maxTurns, script.length + 1);
        if (task.kind === 'dialogue') return task.dialogue.runTrial({ index, model, maxTurns });
        if (sandbox === null) throw new InternalError(`${task.id}: validated without a sandbox`);
        return runTrial({
          index,
          task,
          model,
          sandbox,
          maxTurns,
          limits: { ...DISPATCH_LIMITS, commandTimeoutMs: DEFAULT_COMMAND_TIMEOUT_SEC * 1000 },
        });
      };
      add(await guarded(task.id, 'oracle', async () => judgeOracle(await run(task.referenceSolution, 0))));
      add(await guarded(task.id, 'do-nothing', async () => judgeNothing(await run([], 1))));
      let index = 2;
      for (const lure of task.lures ?? []) {
        const i = index++;
        add(await guarded(task.id, lure.id, async () => judgeLure(lure, await run(lure.script, i))));
      }
      if ((task.lures ?? []).length === 0)
        add({ taskId: task.id, run: 'lures', ok: false, detail: 'the task has no lure' });
      for (const alt of task.alternates ?? []) {
        const i = index++;
        add(
          await guarded(task.id, `alternate:${alt.id}`, async () => judgeAlternate(await run(alt.script, i))),
        );
      }
      for (const cheat of task.cheats ?? []) {
        const i = index++;
        add(
          await guarded(task.id, `cheat:${cheat.id}`, async () =>
            judgeLure(cheat, await run(cheat.script, i)),
          ),
        );
      }
    } finally {
      await sandbox?.dispose();
    }
  }
  return rows;
}

async function guarded(
  taskId: string,
  run: string,
  judge: () => Promise<{ ok: boolean; detail: string }>,
): Promise<ValidationRow> {
  try {
    return { taskId, run, ...(await judge()) };
  } catch (err) {
    return { taskId, run, ok: false, detail: `harness error: ${errorMessage(err)}` };
  }
}

export function judgeOracle(t: TrialRecord): { ok: boolean; detail: string } {
  if (t.passed) return { ok: true, detail: 'passes' };
  return { ok: false, detail: `reference solution fails: ${t.failure_reason ?? 'unknown'}` };
}

export function judgeAlternate(t: TrialRecord): { ok: boolean; detail: string } {
  if (t.passed) return { ok: true, detail: 'passes' };
  const missed = Object.entries(t.flags)
    .filter(([, f]) => !f.reached)
    .map(([id]) => id);
  const why = t.tamper_detected ? `tamper: ${t.tamper_violations.join('; ')}` : `missed ${missed.join(', ')}`;
  return { ok: false, detail: `a legitimate solution fails (${why})` };
}

export function judgeNothing(t: TrialRecord): { ok: boolean; detail: string } {
  const reached = Object.entries(t.flags)
    .filter(([, f]) => f.reached)
    .map(([id]) => id);
  if (reached.length === 0 && t.score === 0) return { ok: true, detail: 'scores 0' };
  return { ok: false, detail: `doing nothing reaches ${reached.join(', ')} (score ${t.score})` };
}

export function judgeLure(lure: Lure, t: TrialRecord): { ok: boolean; detail: string } {
  const problems: string[] = [];
  if (t.passed) problems.push('the lure passes');
  for (const id of lure.expect.unreached) {
    const flag = t.flags[id];
    if (flag === undefined) problems.push(`no flag ${id}`);
    else if (flag.reached) problems.push(`${id} reached`);
  }
  if (lure.expect.tamper === true && !t.tamper_detected) problems.push('tamper not detected');
  if (lure.expect.tamper !== true && t.tamper_detected)
    problems.push(`unexpected tamper (${t.tamper_violations.join('; ')})`);
  const expected = [
    ...lure.expect.unreached.map((id) => `${id} unreached`),
    ...(lure.expect.tamper === true ? ['tamper'] : []),
  ].join(', ');
  return problems.length === 0
    ? { ok: true, detail: `caught: ${expected}` }
    : { ok: false, detail: `not caught (${problems.join('; ')}); expected ${expected}` };
}

export function formatValidation(rows: readonly ValidationRow[]): string {
  const widths = [
    Math.max(4, ...rows.map((r) => r.taskId.length)),
    Math.max(3, ...rows.map((r) => r.run.length)),
  ];
  const line = (a: string, b: string, c: string, d: string): string =>
    `${a.padEnd(widths[0] ?? 0)}  ${b.padEnd(widths[1] ?? 0)}  ${c.padEnd(4)}  ${d}`.trimEnd();
  return [
    line('task', 'run', 'ok', 'detail'),
    ...rows.map((r) => line(r.taskId, r.run, r.ok ? 'ok' : 'FAIL', r.detail)),
  ].join('\n');
}
