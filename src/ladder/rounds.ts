/**
 * A sequential rung's trials, round by round: each round is an ordinary run capped at one more trial
 * per task (BenchOptions.trialsUpTo) that resumes the round before's files, so the rung's results
 * are ordinary results files, and the rule is asked after every round whether it may stop.
 */
import type { ResultFile } from '../results/result-file.js';
import { type SequentialEvidence, type SequentialRule, sequentialEvidence } from './sequential-rule.js';
import type { RungStatus } from './types.js';

export type RoundRun = (o: { resume: boolean; trialsUpTo: number }) => Promise<ResultFile[]>;

/** Rounds until the rule decides, a task can go on no more, or every task has `maxK` trials. */
export async function runRounds(
  rule: SequentialRule,
  resume: boolean,
  run: RoundRun,
  onRound: (e: SequentialEvidence) => void = () => {},
): Promise<ResultFile[]> {
  let upTo = 1;
  let results: ResultFile[] = [];
  // The first round continues earlier files only when asked (--resume); later ones always do.
  for (let first = true; upTo <= rule.maxK; first = false) {
    results = await run({ resume: resume || !first, trialsUpTo: upTo });
    const evidence = sequentialEvidence(rule, results);
    onRound(evidence);
    if (evidence.decision !== 'open') break;
    // A task that ended in error (its trials kept erroring) would only error again.
    if (results.some((r) => r.status !== 'complete')) break;
    // Resumed files may hold more trials than this round asked for: the next round goes past them.
    upTo = Math.max(upTo, ...results.map((r) => r.trials.length)) + 1;
  }
  return results;
}

/** The rung's status by the rule: still open when it ended means it was not (fully) measured. */
export function sequentialOutcome(
  rule: SequentialRule,
  results: readonly ResultFile[],
): { status: RungStatus; evidence: SequentialEvidence; why: string | null } {
  const evidence = sequentialEvidence(rule, results);
  if (evidence.decision !== 'open') return { status: evidence.decision, evidence, why: null };
  return {
    status: 'error',
    evidence,
    why: `stopped before the bound decided (${evidence.measured} trials measured)`,
  };
}
