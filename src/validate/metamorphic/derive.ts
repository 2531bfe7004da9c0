/**
 * Every run the metamorphic operators derive from a task's reference run, but those of operators
 * the task declares do not apply to it. An operator with nothing to work on (no turn with two calls
 * to split, no file written to mutate) derives none; the table says so.
 */
import {
  METAMORPHIC_OPERATORS,
  type MetamorphicOperator,
  type MetamorphicSkips,
  VERIFIER_OPERATORS,
} from '../../tasks/metamorphic.js';
import { sameTurnEvidence, stagedLanding } from './causal-fakes.js';
import { collateralEdits } from './collateral-edits.js';
import { moduleCopy, shimmedRun, standInRun } from './evidence-fakes.js';
import { artifactSwap, codeMutants, revertChange, testsRemoved } from './must-fail.js';
import {
  backgroundWatcher,
  editByPatch,
  editByShell,
  editViaTemp,
  exploreFirst,
  mergedCommands,
  readByShell,
  runnerForms,
  splitTurns,
  textToolCalls,
} from './must-pass.js';
import {
  rewordedReplies,
  saidFalseClaim,
  saidForbiddenAsk,
  saidLeak,
  saidTruthInGerman,
  wrongRequester,
} from './spoken.js';
import { hardCodedAnswers, testsWeakened } from './tests-gamed.js';
import type { DerivedRun, ReferenceRun } from './types.js';

const OPERATORS: Readonly<Record<MetamorphicOperator, (ref: ReferenceRun) => DerivedRun[]>> = {
  revert_change: revertChange,
  code_mutant: codeMutants,
  stand_in_run: standInRun,
  shimmed_run: shimmedRun,
  module_copy: moduleCopy,
  tests_removed: testsRemoved,
  tests_weakened: testsWeakened,
  hard_coded_answers: hardCodedAnswers,
  artifact_swap: artifactSwap,
  collateral_edit: collateralEdits,
  same_turn_evidence: sameTurnEvidence,
  staged_landing: stagedLanding,
  split_turns: splitTurns,
  explore_first: exploreFirst,
  background_watcher: backgroundWatcher,
  edit_by_shell: editByShell,
  edit_via_temp: editViaTemp,
  edit_by_patch: editByPatch,
  runner_forms: runnerForms,
  read_by_shell: readByShell,
  merged_commands: mergedCommands,
  text_tool_calls: textToolCalls,
  said_leak: saidLeak,
  said_forbidden_ask: saidForbiddenAsk,
  said_false_claim: saidFalseClaim,
  said_truth_in_german: saidTruthInGerman,
  wrong_requester: wrongRequester,
  reworded_replies: rewordedReplies,
};

export interface Derivation {
  runs: DerivedRun[];
  /** Operators, or single runs by id, the task declared do not apply, with its reason. */
  skipped: { id: string; reason: string }[];
  /** Operators that found nothing to derive from this reference. */
  empty: MetamorphicOperator[];
}

export function deriveRuns(ref: ReferenceRun, skips: MetamorphicSkips = {}): Derivation {
  const out: Derivation = { runs: [], skipped: [], empty: [] };
  for (const [operator, derive] of Object.entries(OPERATORS) as [
    MetamorphicOperator,
    typeof revertChange,
  ][]) {
    // A conversation has no workspace to change, a workspace task no one to talk to.
    const where = METAMORPHIC_OPERATORS[operator].where;
    if (where !== 'both' && where !== (ref.spoken === undefined ? 'workspace' : 'conversation')) continue;
    if (ref.judgedBy === 'verifier' && !VERIFIER_OPERATORS.has(operator)) continue;
    const reason = skips[operator];
    if (reason !== undefined) {
      out.skipped.push({ id: operator, reason });
      continue;
    }
    const runs = derive(ref);
    if (runs.length === 0) out.empty.push(operator);
    for (const run of runs) {
      const own = skips[run.id];
      if (own === undefined) out.runs.push(run);
      else out.skipped.push({ id: run.id, reason: own });
    }
  }
  return out;
}
