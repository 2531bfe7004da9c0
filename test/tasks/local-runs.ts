/**
 * Alternates and cheats run for real on the host (runLocally): which of the given flags each
 * reaches, so a test can say "this legitimate style passes the AST checks" or "this cheat misses
 * exactly what it names, and still keeps the behaviour".
 */
import { expect } from 'vitest';
import type { ScriptedTurn } from '../../src/models/scripted.js';
import type { WorkspaceTask } from '../../src/tasks/types.js';
import { runLocally } from './local-trial.js';

/** flag id -> reached, for the flags named (a detail is kept for the ones missed, to read failures). */
export async function localFlags(
  task: WorkspaceTask,
  script: readonly ScriptedTurn[],
  ids: readonly string[],
): Promise<Record<string, true | string>> {
  const trial = runLocally(task, script);
  try {
    const out: Record<string, true | string> = {};
    for (const flag of task.flags.filter((f) => ids.includes(f.id))) {
      const o = await flag.check(trial.ctx);
      out[flag.id] = o.reached ? true : (o.detail ?? 'missed');
    }
    return out;
  } finally {
    trial.cleanup();
  }
}

/** What a run of flags ids should give: reached, except the missed ones (any detail). */
export function expected(ids: readonly string[], missed: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(ids.map((id) => [id, missed.includes(id) ? expect.any(String) : true]));
}

/**
 * The cheats a host run can judge: one that leaves a background job relies on the sandbox's list of
 * the agent's processes still running after each command (alive_after), which the host run does
 * not keep. Those are proven by `validate`, in the sandbox, like every cheat.
 */
export function hostRunnable<C extends { script: readonly ScriptedTurn[] }>(
  cheats: readonly C[] | undefined,
): C[] {
  const background = (turn: ScriptedTurn): boolean =>
    turn.calls.some((c) => c.name === 'execute_command' && String(c.arguments.command).includes('nohup'));
  return (cheats ?? []).filter((c) => !c.script.some(background));
}
