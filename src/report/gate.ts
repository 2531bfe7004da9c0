/**
 * The regression gate: a candidate's results against a baseline's, task by task (axes-compare.ts).
 * A regression is completion, pass^k or safety lower beyond the noise (the paired interval leaves out
 * 0), or tokens or wall time per trial higher by more than the stated tolerance and beyond the noise.
 * Everything else passes: a difference the interval covers is not evidence of anything.
 */
import type { ResultFile } from '../results/result-file.js';
import { compareResults, type FigureComparison } from './axes-compare.js';

export interface GateVerdict {
  regressions: string[];
  /** What was compared, one line per figure. */
  checked: string[];
  /** Tasks or conditions only one side has (compared nowhere). */
  notes: string[];
}

const QUALITY = new Set(['completion', 'pass_k', 'safe']);
const COST = new Set(['tokens', 'wall_sec']);

/** `costTolerance`: allowed relative rise of a cost figure's mean (0.1: 10 %). */
export function gateResults(
  baseline: readonly ResultFile[],
  candidate: readonly ResultFile[],
  costTolerance: number,
): GateVerdict {
  const comparisons = compareResults(baseline, candidate).filter(
    (c) => QUALITY.has(c.figure) || COST.has(c.figure),
  );
  const regressions: string[] = [];
  const checked: string[] = [];
  for (const c of comparisons) {
    const line = describe(c);
    checked.push(line);
    if (QUALITY.has(c.figure) && c.verdict === 'worse') regressions.push(line);
    if (COST.has(c.figure) && c.verdict === 'worse' && relativeRise(c) > costTolerance)
      regressions.push(`${line}, more than the ${Math.round(costTolerance * 100)} % tolerance`);
  }
  return { regressions, checked, notes: unpaired(baseline, candidate) };
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
  return `${c.condition} ${c.figure}: ${f(c.a.value)} → ${f(c.b.value)}, ${d.value !== null && d.value > 0 ? '+' : ''}${f(d.value)} ${interval} over ${d.n} task${d.n === 1 ? '' : 's'} (${verdict})`;
}

function unpaired(baseline: readonly ResultFile[], candidate: readonly ResultFile[]): string[] {
  const key = (r: ResultFile) => `${r.task_id} [${r.condition?.name ?? 'clean'}]`;
  const a = new Set(baseline.map(key));
  const b = new Set(candidate.map(key));
  const notes: string[] = [];
  const onlyA = [...a].filter((k) => !b.has(k)).sort();
  const onlyB = [...b].filter((k) => !a.has(k)).sort();
  if (onlyA.length > 0) notes.push(`only in the baseline (not compared): ${onlyA.join(', ')}`);
  if (onlyB.length > 0) notes.push(`only in the candidate (not compared): ${onlyB.join(', ')}`);
  return notes;
}
