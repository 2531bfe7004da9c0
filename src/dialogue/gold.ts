/**
 * A scenario's gold actions: the tool calls, with the arguments the agent's tools take, that bring
 * the desk from the scenario's seed to the end state the policy wants (tau-bench's gold actions).
 * Replayed on a fresh desk when the pack loads, they give the expected end state every trial's
 * whole end state is compared with (helpdesk/end-state.ts); a gold action the desk refuses or
 * answers with an error is the pack author's mistake, reported at load, naming the action.
 */
import { openDesk } from './helpdesk/desk.js';
import type { DeskSeed } from './helpdesk/seed.js';
import type { DeskState } from './helpdesk/state.js';

export interface GoldAction {
  name: string;
  arguments: Record<string, unknown>;
}

/** The end state the gold actions leave, or why one of them does not replay. */
export function replayGold(
  seed: DeskSeed,
  tools: readonly string[] | undefined,
  actions: readonly GoldAction[],
): { ok: true; state: DeskState } | { ok: false; problem: string } {
  const desk = openDesk(seed, tools);
  for (const [i, action] of actions.entries()) {
    const outcome = desk.call(action.name, action.arguments);
    const which = `gold action ${i + 1} (${action.name})`;
    if (outcome.kind !== 'ran') return { ok: false, problem: `${which} is refused: ${outcome.message}` };
    if (!outcome.ok) return { ok: false, problem: `${which} fails: ${outcome.reply}` };
  }
  return { ok: true, state: desk.state };
}
