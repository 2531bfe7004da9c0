/**
 * The operational axes as Markdown, JSON or long-form CSV. In JSON every figure is an object with its
 * value, n, 95 % interval and the interval's method; Markdown prints `value [low, high] n=…`; the CSV
 * has one line per (model, condition, figure), ready for any tool.
 */

import { shortModelNames } from '../results/short-model-name.js';
import type { Estimate } from '../stats/task-estimate.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from '../stats/task-estimate.js';
import type { FigureComparison } from './axes-compare.js';
import type { AxesRow } from './axes-ops.js';
import { type AxesCell, axesTables } from './axes-tables.js';
import { csvField } from './csv-field.js';

export type AxesFormat = 'md' | 'json' | 'csv';

/** How the intervals are made; the dashboard's Axes view shows it too. */
export const METHOD_NOTE = `Intervals are 95 %, over tasks (the task is the unit): Wilson where every task's value is 0 or 1, else a percentile bootstrap over tasks (${BOOTSTRAP_RESAMPLES} resamples, seed ${BOOTSTRAP_SEED}). n is the number of tasks a figure is computed over.`;

export function renderAxes(rows: readonly AxesRow[], format: AxesFormat): string {
  if (format === 'json') return `${JSON.stringify({ note: METHOD_NOTE, rows }, null, 2)}\n`;
  if (format === 'csv') return csv(rows.flatMap(figuresOf));
  return markdown(rows);
}

export function renderComparison(
  comparisons: readonly FigureComparison[],
  names: { a: string; b: string },
  format: AxesFormat,
): string {
  if (format === 'json') return `${JSON.stringify({ note: METHOD_NOTE, ...names, comparisons }, null, 2)}\n`;
  if (format === 'csv') {
    const header = 'condition,figure,better,a,b,difference,n,low,high,verdict';
    const lines = comparisons.map((c) =>
      [
        c.condition,
        c.figure,
        c.better,
        num(c.a.value),
        num(c.b.value),
        num(c.difference.value),
        c.difference.n,
        num(c.difference.low),
        num(c.difference.high),
        c.verdict,
      ].join(','),
    );
    return `${[header, ...lines].join('\n')}\n`;
  }
  const short = shortModelNames([names.a, names.b]);
  const a = short.get(names.a) ?? names.a;
  const b = short.get(names.b) ?? names.b;
  const table = mdTable(
    ['condition', 'figure', a, b, `${b} − ${a}`, 'verdict'],
    comparisons.map((c) => [c.condition, c.figure, fmt(c.a), fmt(c.b), fmt(c.difference), verdictText(c)]),
  );
  return `# ${b} vs ${a}, paired per task\n\n${table}\n\nA difference holds up when its interval leaves out 0 (a bootstrap over the paired tasks) or, for completion and safety, when an exact test on the trials within the paired tasks gives p < 0.05 (its interval: tasks, then trials, resampled); otherwise it is noise. ${METHOD_NOTE}\n`;
}

function verdictText(c: FigureComparison): string {
  const p = 'p' in c.difference ? ` (exact p = ${c.difference.p.toFixed(3)})` : '';
  if (c.verdict === 'noise') return `within noise${p}`;
  if (c.verdict === 'none') return 'no paired task';
  return `**${c.verdict}** (${c.better} is better)${p}`;
}

/** Every figure of a row as (name, estimate), in the order the tables show them. */
function figuresOf(r: AxesRow): { row: AxesRow; figure: string; e: Estimate }[] {
  const list: [string, Estimate | null | undefined][] = [
    ['completion', r.completion],
    ['pass_1', r.pass_1],
    [`pass_k`, r.pass_k],
    ['finish_rate', r.finish_rate],
    ['agreement', r.agreement],
    ['efficiency', r.efficiency],
    ['call_efficiency', r.call_efficiency],
    ['duplicate_rate', r.duplicate_rate],
    ['prompt_tokens', r.cost.prompt_tokens],
    ['completion_tokens', r.cost.completion_tokens],
    ['wall_sec', r.cost.wall_sec],
    ['prompt_tokens_per_sec', r.cost.prompt_tokens_per_sec],
    ['generation_tokens_per_sec', r.cost.generation_tokens_per_sec],
    ['usd', r.cost.usd],
    ['drop_from_clean', r.drop_from_clean],
    ['recovery.completion_with_faults', r.recovery?.completion_with_faults],
    ['recovery.clean_on_same_tasks', r.recovery?.clean_on_same_tasks],
    ['recovery.difference', r.recovery?.difference],
    ['recovery.retry_rate', r.recovery?.retry_rate],
    ['safety.safe', r.safety?.safe],
    ['safety.no_compliance', r.safety?.no_compliance],
    ['safety.no_exfiltration', r.safety?.no_exfiltration],
    ...(r.safety?.by_class ?? []).map((c): [string, Estimate] => [`safety.class.${c.class}`, c.safe]),
  ];
  return list.flatMap(([figure, e]) => (e === null || e === undefined ? [] : [{ row: r, figure, e }]));
}

function csv(items: readonly { row: AxesRow; figure: string; e: Estimate }[]): string {
  const header = 'model,baseline,condition,figure,value,n,low,high,method';
  const lines = items.map(({ row, figure, e }) =>
    [
      csvField(row.model),
      row.baseline,
      row.condition,
      figure,
      num(e.value),
      e.n,
      num(e.low),
      num(e.high),
      e.method ?? '',
    ].join(','),
  );
  return `${[header, ...lines].join('\n')}\n`;
}

function markdown(rows: readonly AxesRow[]): string {
  const parts = axesTables(rows).map(
    (t, i) =>
      `${i === 0 ? '#' : '#'.repeat(t.level)} ${t.title}\n\n${mdTable(
        t.header,
        t.rows.map((r) => r.cells.map(mdCell)),
      )}`,
  );
  parts.push(
    `${METHOD_NOTE} Completion is the pass rate; pass^1 comes from each task's first trial; pass^k is C(c,k)/C(n,k) per task. *Early-stopped* cells stopped at their first failed trial: exact for pass^k, biased low for the pass rate. *Finished* is the share of trials that ended on their own answer (not cut off by the turn limit, the agent's time or a stalled tool; trials the infrastructure failed are not measured); *agreement* the share of a task's pairs of trials with the same final outcome (pass or fail and each outcome flag), over tasks with two or more trials. Efficiency (turns) is min(1, optimal steps ÷ turns that called a tool), efficiency (calls) min(1, optimal calls ÷ tool calls), the optimal calls being the optimal steps (one call per step), both on passing trials only. Baselines are scripted agents run on the same tasks.`,
  );
  return `${parts.join('\n\n')}\n`;
}

function mdCell(c: AxesCell): string {
  if (c.kind === 'model') return `${c.label}${c.baseline ? ' (baseline)' : ''}`;
  if (c.kind === 'text') return c.text;
  return `${fmt(c.estimate, c.digits)}${c.note === '' ? '' : ` *${c.note}*`}`;
}

function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** `0.67 [0.21, 0.94] n=3`; `n/a` without a value. */
function fmt(e: Estimate | null | undefined, digits = 2): string {
  if (e === null || e === undefined || e.value === null) return 'n/a';
  const bounds =
    e.low === null || e.high === null ? '' : ` [${e.low.toFixed(digits)}, ${e.high.toFixed(digits)}]`;
  return `${e.value.toFixed(digits)}${bounds} n=${e.n}`;
}

function num(x: number | null): string {
  return x === null ? '' : String(Math.round(x * 1e6) / 1e6);
}
