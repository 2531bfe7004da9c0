/**
 * A scripted run for real on the host (runLocally): which of the given flags it reaches, so a test
 * can say "this cheat misses on its mutation score". Whether each cheat misses exactly what it names
 * is proven in the sandbox by validate (a cheat's `expect.reached`).
 */
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
