/** What `validate --metamorphic` derives from a task's reference run, and what it is derived from. */
import type { ScriptedTurn } from '../../models/scripted.js';
import type { TrialRecord } from '../../results/trial.js';
import type { MetamorphicOperator } from '../../tasks/metamorphic.js';
import type { SpokenProbes } from '../../tasks/types.js';

/** A workspace file the reference run changed (text only: a binary file is not mutated). */
export interface ChangedFile {
  /** Relative to /workspace. */
  path: string;
  /** As the task placed it; null when the reference created it. */
  before: string | null;
  /** As the reference left it; null when it removed it. */
  after: string | null;
  /** The first turn (1-based) after which the file differed from the look before. */
  firstTurn: number;
  /** The last turn (1-based) after which the file differed from the look before. */
  lastTurn: number;
}

/** The reference run as it happened: its script, its record, and what it changed. */
export interface ReferenceRun {
  script: readonly ScriptedTurn[];
  record: TrialRecord;
  changed: readonly ChangedFile[];
  /** The task's own text files as it placed them, workspace-relative (the visible tests among them). */
  placed?: ReadonlyMap<string, string>;
  /** What the task lets the agent write (its allowed_writes): where a stray new file may go. */
  allowedWrites?: readonly string[];
  /** Set when a verifier judges the task (Harbor): only VERIFIER_OPERATORS apply. */
  judgedBy?: 'verifier';
  /** A conversation's probes (its task's spokenProbes): set for a task that talks to a user. */
  spoken?: SpokenProbes;
}

/** One run derived by an operator: it must be caught (must-fail) or still pass (must-pass). */
export interface DerivedRun {
  operator: MetamorphicOperator;
  /** Unique within the task: the operator and what it did (`code_mutant:src/calc.py:12:<=`). */
  id: string;
  /** What was done, in a line; a mutant says it by its diff. */
  description: string;
  /** The change to the reference's work as a unified diff, when it is one (a mutant, a revert). */
  diff?: string;
  script: ScriptedTurn[];
  /**
   * A must-fail run that only matters if what it fakes is needed: this script leaves it out. When
   * the derived run passes and this one passes too, nothing required was faked (a run the task
   * never asked for), and the row says so instead of a survivor.
   */
  without?: ScriptedTurn[];
  /**
   * A must-fail run whose fake may not reach what it fakes (a shim the command never goes
   * through): given its trial, null when it did, else why not, and the row is skipped, since a run
   * left as the reference's proves nothing.
   */
  applied?: (trial: TrialRecord) => string | null;
}
