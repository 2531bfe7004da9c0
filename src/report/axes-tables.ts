/**
 * The operational axes' tables, as data: which tables, which columns, which figure in each cell. One
 * definition for every reader: `report axes` renders it as Markdown (axes-render.ts), the dashboard's
 * server sends it with /api/axes and the browser renders the same cells (static/axes.js), so the two
 * cannot drift apart.
 */
import { shortModelNames } from '../results/short-model-name.js';
import type { Estimate } from '../stats/task-estimate.js';
import { type AxesRow, RANKABLE_TRIALS } from './axes-ops.js';

export type AxesCell =
  /** The model, marked when it is a baseline; `label` is the name it is shown by (short-model-name.ts). */
  | { kind: 'model'; model: string; label: string; baseline: boolean }
  | { kind: 'text'; text: string }
  /** `0.67 [0.21, 0.94] n=3`; `figure` names it as the CSV does; `note` follows it in small print. */
  | { kind: 'figure'; figure: string; estimate: Estimate | null; digits: number; note: string };

export interface AxesTable {
  /** Stable id: the dashboard's table id and a test's handle. */
  id: string;
  title: string;
  /** 2 for a section, 3 for a sub-table of the one before. */
  level: 2 | 3;
  header: string[];
  rows: { key: { model: string; condition: string; baseline: boolean }; cells: AxesCell[] }[];
}

const model = (r: AxesRow): AxesCell => ({
  kind: 'model',
  model: r.model,
  label: r.model,
  baseline: r.baseline,
});
const text = (t: string): AxesCell => ({ kind: 'text', text: t });
const figure = (name: string, e: Estimate | null | undefined, digits = 2, note = ''): AxesCell => ({
  kind: 'figure',
  figure: name,
  estimate: e ?? null,
  digits,
  note,
});
const keyOf = (r: AxesRow) => ({ model: r.model, condition: r.condition, baseline: r.baseline });

/** Every table of the axes view, in order; the recovery and safety tables only when some row has them. */
export function axesTables(rows: readonly AxesRow[]): AxesTable[] {
  const tables = [
    mainTable(rows),
    costTable(rows),
    ...recoveryTables(rows),
    ...safetyTables(rows),
    ...rewardTables(rows),
  ];
  // Short names are unique over every model of the view, so each table labels a model alike.
  const names = shortModelNames(rows.map((r) => r.model));
  const labelled = (c: AxesCell): AxesCell =>
    c.kind === 'model' ? { ...c, label: names.get(c.model) ?? c.model } : c;
  return tables.map((t) => ({ ...t, rows: t.rows.map((r) => ({ ...r, cells: r.cells.map(labelled) })) }));
}

/** Harbor tasks whose verifier wrote named metrics (reward.json): each metric, as the trials' score hides all but one. */
function rewardTables(rows: readonly AxesRow[]): AxesTable[] {
  if (!rows.some((r) => r.rewards.length > 0)) return [];
  return [
    {
      id: 'axes-rewards',
      title: 'Named rewards (Harbor reward.json: mean over the measured trials that wrote it)',
      level: 2,
      header: ['model', 'condition', 'task', 'metric', 'mean', 'trials'],
      rows: rows.flatMap((r) =>
        r.rewards.map((n) => ({
          key: keyOf(r),
          cells: [
            model(r),
            text(r.condition),
            text(n.task),
            text(n.metric),
            text(String(Math.round(n.mean * 1000) / 1000)),
            text(String(n.trials)),
          ],
        })),
      ),
    },
  ];
}

function mainTable(rows: readonly AxesRow[]): AxesTable {
  return {
    id: 'axes-main',
    title: 'Operational axes',
    level: 2,
    header: [
      'model',
      'condition',
      'tasks',
      'completion',
      'pass^1',
      'pass^k',
      'finished',
      'agreement',
      'efficiency (turns)',
      'efficiency (calls)',
      'duplicate calls',
      'drop from clean',
    ],
    rows: rows.map((r) => ({
      key: keyOf(r),
      cells: [
        model(r),
        text(r.condition),
        text(`${r.tasks.length} (${r.trials} trials${instancesText(r)})`),
        figure(
          'completion',
          r.completion,
          2,
          r.early_stopped.length > 0 ? `${r.early_stopped.length} early-stopped` : '',
        ),
        figure('pass_1', r.pass_1),
        figure('pass_k', r.pass_k, 2, `k=${r.pass_k.k.join('/')}`),
        figure('finish_rate', r.finish_rate),
        figure('agreement', r.agreement),
        figure('efficiency', r.efficiency),
        figure('call_efficiency', r.call_efficiency),
        figure('duplicate_rate', r.duplicate_rate),
        figure('drop_from_clean', r.drop_from_clean),
      ],
    })),
  };
}

function costTable(rows: readonly AxesRow[]): AxesTable {
  return {
    id: 'axes-cost',
    title: 'Cost (per trial)',
    level: 2,
    header: [
      'model',
      'condition',
      'prompt tokens',
      'completion tokens',
      'wall s',
      'prompt tok/s',
      'generation tok/s',
      'USD',
    ],
    rows: rows.map((r) => ({
      key: keyOf(r),
      cells: [
        model(r),
        text(r.condition),
        figure('prompt_tokens', r.cost.prompt_tokens, 0),
        figure('completion_tokens', r.cost.completion_tokens, 0),
        figure('wall_sec', r.cost.wall_sec, 1),
        figure('prompt_tokens_per_sec', r.cost.prompt_tokens_per_sec, 1),
        figure(
          'generation_tokens_per_sec',
          r.cost.generation_tokens_per_sec,
          1,
          r.cost.speed_source === 'latency' ? 'from latency' : '',
        ),
        // Only with a price table (report axes --price-table).
        figure('usd', r.cost.usd, 4),
      ],
    })),
  };
}

function recoveryTables(rows: readonly AxesRow[]): AxesTable[] {
  const noisy = rows.flatMap((r) => (r.recovery === null ? [] : [{ r, rec: r.recovery }]));
  if (noisy.length === 0) return [];
  return [
    {
      id: 'axes-recovery',
      title: 'Recovery (noisy: trials in which a fault fired)',
      level: 2,
      header: [
        'model',
        'condition',
        'faulted trials',
        'completion with faults',
        'clean, same tasks',
        'difference',
        'retry rate',
      ],
      rows: noisy.map(({ r, rec }) => ({
        key: keyOf(r),
        cells: [
          model(r),
          text(r.condition),
          text(`${rec.faulted_trials} (${rec.faults} faults)`),
          figure('recovery.completion_with_faults', rec.completion_with_faults),
          figure('recovery.clean_on_same_tasks', rec.clean_on_same_tasks),
          figure('recovery.difference', rec.difference),
          figure('recovery.retry_rate', rec.retry_rate),
        ],
      })),
    },
  ];
}

function safetyTables(rows: readonly AxesRow[]): AxesTable[] {
  const attacked = rows.flatMap((r) => (r.safety === null ? [] : [{ r, safety: r.safety }]));
  if (attacked.length === 0) return [];
  return [
    {
      id: 'axes-safety',
      title: 'Safety (adversarial: trials that reached the payload)',
      level: 2,
      header: [
        'model',
        'condition',
        'exposed trials',
        'safe',
        'no compliance',
        'no exfiltration',
        'utility under attack',
      ],
      rows: attacked.map(({ r, safety }) => ({
        key: keyOf(r),
        cells: [
          model(r),
          text(r.condition),
          text(String(safety.exposed_trials)),
          figure('safety.safe', safety.safe),
          figure('safety.no_compliance', safety.no_compliance),
          figure('safety.no_exfiltration', safety.no_exfiltration),
          figure('completion', r.completion),
        ],
      })),
    },
    {
      id: 'axes-classes',
      title: 'By injection class (over exposed trials)',
      level: 3,
      header: [
        'model',
        'class',
        'exposed',
        'exposures',
        'complied',
        'exfiltrated',
        'reported',
        'safe',
        'rank',
      ],
      rows: attacked.flatMap(({ r, safety }) =>
        safety.by_class.map((c) => ({
          key: keyOf(r),
          cells: [
            model(r),
            text(c.class),
            text(String(c.exposed_trials)),
            text(String(c.exposures)),
            text(String(c.complied)),
            text(String(c.exfiltrated)),
            text(String(c.reported)),
            figure(`safety.class.${c.class}`, c.safe),
            text(c.too_few_to_rank ? `too few to rank (< ${RANKABLE_TRIALS} exposed trials)` : ''),
          ],
        })),
      ),
    },
  ];
}

/** `; 3 variant tasks on 9 instances`: the distinct problems behind a row's figures (seeded variants). */
function instancesText(r: AxesRow): string {
  const i = r.instances;
  if (i === null) return '';
  return `; ${i.tasks} variant task${i.tasks === 1 ? '' : 's'} on ${i.distinct} distinct instance${i.distinct === 1 ? '' : 's'}`;
}
