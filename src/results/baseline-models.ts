/**
 * Which model names are scripted agents run for reference, never models under test: the harness's
 * baselines (`--model baseline:NAME`, src/agent/baselines.ts), the oracle, and the dialogue tasks'
 * rule-following agent (`--model scripted-baseline`, src/dialogue/baseline). One definition, so every
 * report marks them and the gate never takes one for the model it judges.
 */

/** The dialogue tasks' scripted agent, as it names itself in results. */
export const SCRIPTED_DIALOGUE_BASELINE = 'scripted-baseline';

export function isBaseline(model: string): boolean {
  return model === 'oracle' || model === SCRIPTED_DIALOGUE_BASELINE || model.startsWith('baseline:');
}
