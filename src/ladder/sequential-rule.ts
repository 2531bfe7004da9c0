/**
 * The sequential ladder's rule (`--target P --confidence C --max-k N`, P < 1): a rung's trials, pooled
 * over the suite's tasks, decide it as soon as the one-sided Clopper–Pearson bound at C is wholly on
 * one side of P; at N trials per task it stays undecided, which is never a pass. Checked after every
 * round (one trial of each task), so the bound is a per-look bound: see docs/ladder.md.
 */
import type { ResultFile } from '../results/result-file.js';
import { clopperPearson } from '../stats/clopper-pearson.js';

export interface SequentialRule {
  /** The pass rate a rung must be shown to reach, in (0, 1). */
  target: number;
  /** Of each one-sided bound, in (0, 1). */
  confidence: number;
  /** Trials per task at most. */
  maxK: number;
}

/** What a rung's trials show so far, and what the rule makes of it. */
export interface SequentialEvidence {
  /** Measured trials that passed without tampering. */
  passed: number;
  /** Trials that were measured (error trials are not). */
  measured: number;
  /** The most trials any task has run (errors included): the rounds so far. */
  trialsPerTask: number;
  lower: number;
  upper: number;
  /** `open`: neither side yet, and trials are left to run. */
  decision: 'passed' | 'failed' | 'undecided' | 'open';
}

/** The rung's evidence from its results files: tampering is a failed trial, errors count nowhere. */
export function sequentialEvidence(rule: SequentialRule, results: readonly ResultFile[]): SequentialEvidence {
  const trials = results.flatMap((r) => r.trials);
  const measured = trials.filter((t) => t.status !== 'error');
  const passed = measured.filter((t) => t.passed && !t.tamper_detected).length;
  const trialsPerTask = Math.max(0, ...results.map((r) => r.trials.length));
  const { lower, upper } = clopperPearson(passed, measured.length, rule.confidence);
  return {
    passed,
    measured: measured.length,
    trialsPerTask,
    lower,
    upper,
    decision: decide(rule, { lower, upper, trialsPerTask }),
  };
}

export function decide(
  rule: SequentialRule,
  e: { lower: number; upper: number; trialsPerTask: number },
): SequentialEvidence['decision'] {
  if (e.lower >= rule.target) return 'passed';
  if (e.upper < rule.target) return 'failed';
  return e.trialsPerTask >= rule.maxK ? 'undecided' : 'open';
}

/** `≥ 0.81`, `< 0.42`, `0.35–0.93`: the side of the bound that decided, or both while undecided. */
export function describeBound(e: Pick<SequentialEvidence, 'lower' | 'upper' | 'decision'>): string {
  if (e.decision === 'passed') return `pass rate ≥ ${floor2(e.lower)}`;
  if (e.decision === 'failed') return `pass rate ≤ ${ceil2(e.upper)}`;
  return `pass rate ${floor2(e.lower)}–${ceil2(e.upper)}`;
}

/** `90 %` */
export function percent(confidence: number): string {
  return `${Math.round(confidence * 1000) / 10} %`;
}

// Rounded outwards, so the printed bound is never stronger than the computed one.
const floor2 = (x: number): string => (Math.floor(x * 100) / 100).toFixed(2);
const ceil2 = (x: number): string => (Math.ceil(x * 100) / 100).toFixed(2);
