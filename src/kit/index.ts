/**
 * The task-author kit: everything a task's check code needs, in one module. A task folder's
 * flags.ts imports only this (and Node's built-in modules); a TypeScript task may use it too. It is
 * the vocabulary of checks: the scoring internals behind it can change without a task noticing.
 */

export type { File, Function as FunctionNode, Node } from '@babel/types';
export { linesContaining } from '../evidence/coverage.js';
export type { ProcessLog } from '../results/trial.js';
export { CHECKER_HOME, WORKSPACE_DIR } from '../sandbox/types.js';
export {
  firstChangeTurn,
  groundTruthPasses,
  knownFiles,
  lastChangeTurn,
  pytestRuns,
  readAnyWorkspaceFile,
  readRepeats,
} from '../scoring/check-helpers.js';
export { wire } from '../scoring/differential-wire.js';
export {
  anyTypes,
  calleeName,
  exportedBindings,
  nodesOf,
  parseSource,
  shapeOf,
  testModifiers,
  tsSuppressions,
} from '../scoring/js-ast.js';
export { clonesOf } from '../scoring/js-clones.js';
export { constantTruth, constantValue, unwrapTs } from '../scoring/js-constant.js';
export { type LiveCall, type LiveRoot, liveCode, type Target, topLevelRoot } from '../scoring/js-live.js';
export type { Scope } from '../scoring/js-scope.js';
export { jsRuns } from '../scoring/js-test-runs.js';
export { mcpCalls } from '../scoring/mcp-calls.js';
export { countNodeTests, harnessNodeTest, tapSummary } from '../scoring/node-test-run.js';
export { afterChange, beforeChange, changedBefore, type StepRef, writersIn } from '../scoring/ordering.js';
export { isWithin, workspaceRelative } from '../scoring/paths.js';
export { ownExitCode, programRuns } from '../scoring/program-runs.js';
export { harnessPytest } from '../scoring/pytest-run.js';
export { firstRead, type ReadNeed, readsOf } from '../scoring/seen.js';
export { sameEntry } from '../scoring/snapshot-diff.js';
export { type CheckContext, type FlagOutcome, HIDDEN_DIR } from '../tasks/types.js';
export { upToLast } from '../util/up-to-last.js';
export * from './differential.js';
export * from './js-checks.js';
export * from './mutation.js';
export * from './pytest-audit.js';
export * from './pytest-log.js';
export * from './tdd.js';
export * from './ts-checks.js';
