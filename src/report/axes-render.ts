/**
 * The operational axes as Markdown, JSON or long-form CSV. In JSON every figure is an object with its
 * value, n, 95 % interval and the interval's method; Markdown prints `value [low, high] n=…`; the CSV
 * has one line per (model, condition, figure), ready for any tool.
 */
import type { Estimate } from '../stats/task-estimate.js';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from '../stats/task-estimate.js';
import type { FigureComparison } from './axes-compare.js';
import type { AxesRow } from './axes-ops.js';
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
  const table = mdTable(
    ['condition', 'figure', names.a, names.b, `${names.b} − ${names.a}`, 'verdict'],
    comparisons.map((c) => [c.condition, c.figure, fmt(c.a), fmt(c.b), fmt(c.difference), verdictText(c)]),
  );
  return `# ${names.b} vs ${names.a}, paired per task\n\n${table}\n\nA difference holds up when its interval leaves out 0 (a bootstrap over the paired tasks); otherwise it is noise. ${METHOD_NOTE}\n`;
}

function verdictText(c: FigureComparison): string {
  if (c.verdict === 'noise') return 'within noise';
  if (c.verdict === 'none') return 'no paired task';
  return `**${c.verdict}** (${c.better} is better)`;
}

/** Every figure of a row as (name, estimate), in the order the tables show them. */
function figuresOf(r: AxesRow): { row: AxesRow; figure: string; e: Estimate }[] {
  const list: [string, Estimate | null | undefined][] = [
    ['completion', r.completion],
    ['pass_1', r.pass_1],
    [`pass_k`, r.pass_k],
    ['efficiency', r.efficiency],
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
  const parts = [
    '# Operational axes',
    outcomeTable(rows),
    '## Cost (per trial)',
    costTable(rows),
    ...recoverySection(rows.filter((r) => r.recovery !== null)),
    ...safetySection(rows.filter((r) => r.safety !== null)),
    `${METHOD_NOTE} Completion is the pass rate; pass^1 comes from each task's first trial; pass^k is C(c,k)/C(n,k) per task. *Early-stopped* cells stopped at their first failed trial: exact for pass^k, biased low for the pass rate. Efficiency is min(1, optimal steps ÷ turns that called a tool) on passing trials only. Baselines are scripted agents run on the same tasks.`,
  ];
  return `${parts.join('\n\n')}\n`;
}

function rowName(r: AxesRow): string {
  return `${r.model}${r.baseline ? ' (baseline)' : ''}`;
}

function outcomeTable(rows: readonly AxesRow[]): string {
  const early = (r: AxesRow): string =>
    r.early_stopped.length > 0 ? ` *${r.early_stopped.length} early-stopped*` : '';
  return mdTable(
    ['model', 'condition', 'tasks', 'completion', 'pass^1', 'pass^k', 'efficiency', 'duplicate calls'],
    rows.map((r) => [
      rowName(r),
      r.condition,
      `${r.tasks.length} (${r.trials} trials)`,
      `${fmt(r.completion)}${early(r)}`,
      fmt(r.pass_1),
      `${fmt(r.pass_k)} k=${r.pass_k.k.join('/')}`,
      fmt(r.efficiency),
      fmt(r.duplicate_rate),
    ]),
  );
}

function costTable(rows: readonly AxesRow[]): string {
  return mdTable(
    [
      'model',
      'condition',
      'prompt tokens',
      'completion tokens',
      'wall s',
      'prompt tok/s',
      'generation tok/s',
      'USD',
    ],
    rows.map((r) => [
      rowName(r),
      r.condition,
      fmt(r.cost.prompt_tokens, 0),
      fmt(r.cost.completion_tokens, 0),
      fmt(r.cost.wall_sec, 1),
      fmt(r.cost.prompt_tokens_per_sec, 1),
      `${fmt(r.cost.generation_tokens_per_sec, 1)}${r.cost.speed_source === 'latency' ? ' (from latency)' : ''}`,
      r.cost.usd === null ? 'n/a' : fmt(r.cost.usd, 4),
    ]),
  );
}

/** Rows of noisy conditions only; none: no section. */
function recoverySection(noisy: readonly AxesRow[]): string[] {
  if (noisy.length === 0) return [];
  return [
    '## Recovery (noisy: trials in which a fault fired)',
    mdTable(
      [
        'model',
        'condition',
        'faulted trials',
        'completion with faults',
        'clean, same tasks',
        'difference',
        'retry rate',
        'drop from clean (all trials)',
      ],
      noisy.map((r) => {
        const rec = r.recovery;
        return [
          rowName(r),
          r.condition,
          `${rec?.faulted_trials ?? 0} (${rec?.faults ?? 0} faults)`,
          fmt(rec?.completion_with_faults),
          fmt(rec?.clean_on_same_tasks),
          fmt(rec?.difference),
          fmt(rec?.retry_rate),
          fmt(r.drop_from_clean),
        ];
      }),
    ),
  ];
}

/** Rows of adversarial conditions only; none: no section. */
function safetySection(adversarial: readonly AxesRow[]): string[] {
  if (adversarial.length === 0) return [];
  return [
    '## Safety (adversarial: trials that reached the payload)',
    mdTable(
      [
        'model',
        'exposed trials',
        'safe',
        'no compliance',
        'no exfiltration',
        'utility under attack',
        'drop from clean',
      ],
      adversarial.map((r) => [
        rowName(r),
        String(r.safety?.exposed_trials ?? 0),
        fmt(r.safety?.safe),
        fmt(r.safety?.no_compliance),
        fmt(r.safety?.no_exfiltration),
        fmt(r.completion),
        fmt(r.drop_from_clean),
      ]),
    ),
    '### By injection class (over exposed trials)',
    mdTable(
      ['model', 'class', 'exposed', 'complied', 'exfiltrated', 'safe'],
      adversarial.flatMap((r) =>
        (r.safety?.by_class ?? []).map((c) => [
          rowName(r),
          c.class,
          String(c.exposed_trials),
          String(c.complied),
          String(c.exfiltrated),
          fmt(c.safe),
        ]),
      ),
    ),
  ];
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
