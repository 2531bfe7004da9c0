/**
 * Which user a run's dialogue trials talk to: the scenario's scripted user (the default: runs are
 * reproducible and free) or a model playing it (`--user-model`), recorded with its settings.
 */
import type { SimulatedUserRecord } from '../../results/trial.js';
import type { DialogueUserChoice } from '../../tasks/types.js';
import { llmUser } from './llm-user.js';
import { scriptedUser } from './scripted-user.js';
import type { SimulatedUser } from './simulated-user.js';
import type { UserScript } from './user-script.js';

export type UserChoice = DialogueUserChoice;

export const SCRIPTED_USER: UserChoice = { kind: 'scripted' };

export function userFor(
  choice: UserChoice,
  script: UserScript,
): { user: SimulatedUser; record: SimulatedUserRecord } {
  if (choice.kind === 'scripted') return { user: scriptedUser(script), record: { kind: 'scripted' } };
  return { user: llmUser(script, choice.makeModel()), record: choice.record };
}
