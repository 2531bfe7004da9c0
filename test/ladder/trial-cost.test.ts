/**
 * What a sequential rung's decision costs, by simulation with the ladder's own rule (one task, one
 * trial per round, --confidence 0.9, --max-k 30): the table README.md prints under "Reading the
 * ladder's bound" is this test's output, so the numbers there are reproducible, not hand-written.
 * `PRINT_TRIAL_COSTS=1 npx vitest run --project unit test/ladder/trial-cost.test.ts` prints it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decide, type SequentialRule } from '../../src/ladder/sequential-rule.js';
import { clopperPearson } from '../../src/stats/clopper-pearson.js';
import { seededRandom } from '../../src/stats/random.js';

const TARGETS = [0.8, 0.9, 0.95];
const RATES = [1, 0.95, 0.9, 0.7, 0.5, 0];
const RUNS = 1000;

/** Trials to the decision, per simulated rung, and the decisions' shares. */
function simulate(rate: number, rule: SequentialRule, seed: number) {
  const draw = seededRandom(seed);
  const trials: number[] = [];
  const outcomes = { passed: 0, failed: 0, undecided: 0 };
  for (let run = 0; run < RUNS; run++) {
    let passed = 0;
    for (let n = 1; n <= rule.maxK; n++) {
      if (draw() < rate) passed++;
      const { lower, upper } = clopperPearson(passed, n, rule.confidence);
      const d = decide(rule, { lower, upper, trialsPerTask: n });
      if (d === 'open') continue;
      outcomes[d]++;
      trials.push(n);
      break;
    }
  }
  const sorted = [...trials].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)] ?? 0, ...outcomes };
}

function costTable(): string {
  const pct = (x: number) => `${Math.round((x / RUNS) * 100)}`;
  const cell = (rate: number, target: number): string => {
    const s = simulate(rate, { target, confidence: 0.9, maxK: 30 }, 20_261_205);
    return `${s.median} — ${pct(s.passed)}/${pct(s.failed)}/${pct(s.undecided)}`;
  };
  return [
    `| true pass rate | ${TARGETS.map((t) => `target ${t}`).join(' | ')} |`,
    `| --- | ${TARGETS.map(() => '---').join(' | ')} |`,
    ...RATES.map((r) => `| ${r} | ${TARGETS.map((t) => cell(r, t)).join(' | ')} |`),
  ].join('\n');
}

describe('what a decision costs (README)', () => {
  it('README.md holds the simulated table as this rule produces it', () => {
    const table = costTable();
    if (process.env.PRINT_TRIAL_COSTS === '1') console.log(table);
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    expect(readme).toContain(table);
  });
});
