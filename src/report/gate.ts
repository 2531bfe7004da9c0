/**
 * The regression gate: a candidate's results against a baseline's, task by task (axes-compare.ts).
 * A regression is completion, pass^k or safety lower beyond the noise (for completion and safety: an
 * exact test on the trials within the paired tasks, so one skill run k times is enough; for pass^k:
 * the paired interval over tasks leaves out 0), or a cost per trial higher by more than the stated
 * tolerance and beyond the noise. The cost is what the model did — tokens — unless asked for time:
 * the model's own reply time (`model-time`) or the harness's wall time (`wall`), both of which a busy
 * machine inflates, so the gate says when the two runs were measured under different load. Everything else passes: a difference within the noise is
 * not evidence of anything, so the gate also says the smallest drop in completion it could have seen
 * with these trials — the user's cue to raise k.
 */
import type { ResultFile } from '../results/result-file.js';
import { axesConditionKey } from './axes-cells.js';
import { compareResults, type FigureComparison, type TrialDifference } from './axes-compare.js';

export interface GateVerdict {
  regressions: string[];
  /** What was compared, one line per figure. */
  checked: string[];
  /** Tasks or conditions only one side has (compared nowhere); how small a drop could be seen. */
  notes: string[];
}

const QUALITY = new Set(['completion', 'pass_k', 'safe']);

/** What cost the gate fails on: tokens only, or tokens and one kind of time. */
export type GateOn = 'tokens' | 'model-time' | 'wall';
const COST: Readonly<Record<GateOn, ReadonlySet<string>>> = {
  tokens: new Set(['tokens']),
  'model-time': new Set(['tokens', 'model_sec']),
  wall: new Set(['tokens', 'wall_sec']),
};

/** `costTolerance`: allowed relative rise of a cost figure's mean (0.1: 10 %). */
export function gateResults(
  baseline: readonly ResultFile[],
  candidate: readonly ResultFile[],
  costTolerance: number,
  gateOn: GateOn = 'tokens',
): GateVerdict {
  const cost = COST[gateOn];
  const comparisons = compareResults(baseline, candidate).filter(
    (c) => QUALITY.has(c.figure) || cost.has(c.figure),
  );
  const regressions: string[] = [];
  const checked: string[] = [];
  for (const c of comparisons) {
    const line = describe(c);
    checked.push(line);
    if (QUALITY.has(c.figure) && c.verdict === 'worse') regressions.push(line);
    if (cost.has(c.figure) && c.verdict === 'worse' && relativeRise(c) > costTolerance)
      regressions.push(`${line}, more than the ${Math.round(costTolerance * 100)} % tolerance`);
  }
  const load = gateOn === 'tokens' ? [] : loadNote(baseline, candidate);
  return { regressions, checked, notes: [...unpaired(baseline, candidate), ...power(comparisons), ...load] };
}

/** When time is gated: a line if the two runs' machines were not alike (cores, or load per core). */
function loadNote(baseline: readonly ResultFile[], candidate: readonly ResultFile[]): string[] {
  const machine = (rs: readonly ResultFile[]) => rs.find((r) => r.environment.machine)?.environment.machine;
  const a = machine(baseline);
  const b = machine(candidate);
  const said = (m: typeof a) => (m === undefined ? 'not recorded' : `load ${m.load_1m} on ${m.cores} cores`);
  const alike =
    a !== undefined &&
    b !== undefined &&
    a.cores === b.cores &&
    Math.abs(a.load_1m / a.cores - b.load_1m / b.cores) < 0.5;
  return alike
    ? []
    : [
        `the two runs' machines differ (baseline ${said(a)}, candidate ${said(b)}): their times compare loosely`,
      ];
}

/** Per condition: the smallest drop in completion the test could have flagged with these trials. */
function power(comparisons: readonly FigureComparison[]): string[] {
  return comparisons.flatMap((c) => {
    if (c.figure !== 'completion' || !('p' in c.difference)) return [];
    const d: TrialDifference = c.difference;
    const counts = `${d.trials.a} baseline and ${d.trials.b} candidate trials over ${d.n} task${d.n === 1 ? '' : 's'}`;
    return [
      d.detectableDrop === null
        ? `${c.condition}: no drop in completion could be detected with ${counts}: raise k`
        : `${c.condition}: the smallest drop in completion detectable with ${counts} is ${d.detectableDrop.toFixed(2)}`,
    ];
  });
}

function relativeRise(c: FigureComparison): number {
  const a = c.a.value;
  const b = c.b.value;
  if (a === null || b === null) return 0;
  return a === 0 ? (b > 0 ? Number.POSITIVE_INFINITY : 0) : (b - a) / a;
}

/** `clean pass_k: 0.83 → 0.33, −0.50 [−0.83, −0.17] over 6 tasks (worse)`. */
function describe(c: FigureComparison): string {
  const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(c.figure === 'tokens' ? 0 : 2));
  const d = c.difference;
  const interval = d.low === null || d.high === null ? 'no interval' : `[${f(d.low)}, ${f(d.high)}]`;
  const verdict = c.verdict === 'noise' ? 'within noise' : c.verdict;
  const trials = 'p' in d ? `, ${d.trials.a}+${d.trials.b} trials, exact p = ${pValue(d.p)}` : '';
  return `${c.condition} ${c.figure}: ${f(c.a.value)} → ${f(c.b.value)}, ${d.value !== null && d.value > 0 ? '+' : ''}${f(d.value)} ${interval} over ${d.n} task${d.n === 1 ? '' : 's'}${trials} (${verdict})`;
}

function pValue(p: number): string {
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

function unpaired(baseline: readonly ResultFile[], candidate: readonly ResultFile[]): string[] {
  const key = (r: ResultFile) => `${r.task_id} [${axesConditionKey(r)}]`;
  const a = new Set(baseline.map(key));
  const b = new Set(candidate.map(key));
  const notes: string[] = [];
  const onlyA = [...a].filter((k) => !b.has(k)).sort();
  const onlyB = [...b].filter((k) => !a.has(k)).sort();
  if (onlyA.length > 0) notes.push(`only in the baseline (not compared): ${onlyA.join(', ')}`);
  if (onlyB.length > 0) notes.push(`only in the candidate (not compared): ${onlyB.join(', ')}`);
  return notes;
}
