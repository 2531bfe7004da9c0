/** Runs a scenario's scripted agent runs (reference, lures) through the real dialogue trial, in memory. */
import type { Scenario } from '../../src/dialogue/pack.js';
import { loadPack } from '../../src/dialogue/pack.js';
import { dialogueTasks } from '../../src/dialogue/task.js';
import { SCRIPTED_USER, type UserChoice } from '../../src/dialogue/user/user-choice.js';
import { createScriptedModel, type ScriptedTurn } from '../../src/models/scripted.js';
import type { ChatModel } from '../../src/models/types.js';
import type { RunCondition } from '../../src/results/condition.js';
import type { TrialRecord } from '../../src/results/trial.js';

export const PACK = loadPack();

export function scenario(id: string): Scenario {
  const found = PACK.scenarios.find((s) => s.file.id === id);
  if (found === undefined) throw new Error(`no scenario ${id}`);
  return found;
}

/** A trial of the scenario as a run makes it: through its task (the trial kernel with the desk's strategies). */
export function runDialogueTrial(o: {
  index: number;
  scenario: Scenario;
  agent: ChatModel;
  user: UserChoice;
  maxTurns: number;
  condition?: RunCondition;
}): Promise<TrialRecord> {
  const [task] = dialogueTasks({ ...PACK, scenarios: [o.scenario] });
  if (task === undefined) throw new Error(`no task of ${o.scenario.file.id}`);
  return task.environment.runTrial({
    index: o.index,
    model: o.agent,
    user: o.user,
    maxTurns: o.maxTurns,
    ...(o.condition === undefined ? {} : { condition: o.condition }),
  });
}

export function runAgent(
  s: Scenario,
  agent: ChatModel,
  user: UserChoice = SCRIPTED_USER,
  index = 0,
): Promise<TrialRecord> {
  return runDialogueTrial({ index, scenario: s, agent, user, maxTurns: s.file.max_turns });
}

export function runScript(s: Scenario, script: readonly ScriptedTurn[]): Promise<TrialRecord> {
  return runAgent(s, createScriptedModel('script', script));
}

export function unreached(t: TrialRecord): string[] {
  return Object.entries(t.flags)
    .filter(([, f]) => !f.reached)
    .map(([id]) => id);
}

/** The conversation in a few lines, for a failing test's message. */
export function transcript(t: TrialRecord): string {
  return t.turn_logs
    .map((l) => {
      const calls = l.tool_calls
        .map((c) => `${c.name} -> ${(c.stdout || c.stderr).slice(0, 100)}`)
        .join(' | ');
      const user =
        l.user_reply === undefined
          ? ''
          : ` => user: ${l.user_reply.text}${l.user_reply.ended ? ' [end]' : ''}`;
      return `${l.turn}. ${l.assistant_text.slice(0, 100)} ${calls}${user}`;
    })
    .join('\n');
}
