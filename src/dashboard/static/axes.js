// The Axes view: the operational axes per model and condition, as `report axes` prints them (the server
// computes them with the same code), and dialogue tasks by policy dimension, as under `report matrix`.
// Every figure carries its 95 % interval and n, so a gap within the noise reads as one.
import { getJson } from './api.js';
import { append, byId, clear, el } from './dom.js';

/**
 * @typedef {{ value: number | null, n: number, low: number | null, high: number | null }} Estimate
 * @typedef {{ model: string, baseline: boolean, condition: string, tasks: string[], trials: number,
 *   early_stopped: string[], completion: Estimate, pass_1: Estimate, pass_k: Estimate & { k: number[] },
 *   efficiency: Estimate, duplicate_rate: Estimate, drop_from_clean: Estimate | null,
 *   cost: { prompt_tokens: Estimate, completion_tokens: Estimate, wall_sec: Estimate,
 *     prompt_tokens_per_sec: Estimate, generation_tokens_per_sec: Estimate, speed_source: string | null },
 *   recovery: { faulted_trials: number, faults: number, completion_with_faults: Estimate,
 *     clean_on_same_tasks: Estimate, difference: Estimate, retry_rate: Estimate } | null,
 *   safety: { exposed_trials: number, safe: Estimate, no_compliance: Estimate, no_exfiltration: Estimate,
 *     by_class: { class: string, exposed_trials: number, complied: number, exfiltrated: number, safe: Estimate }[] } | null
 * }} AxesRow
 * @typedef {{ model: string, dimension: string, scenarios: number, k: string, users: string,
 *   pass_rate: Estimate, pass_hat_k: Estimate }} DimensionRow
 * @typedef {{ note: string, rows: AxesRow[], dimensions: DimensionRow[], dimensions_note: string }} AxesData
 */

export async function showAxes() {
  const box = byId('view-axes');
  /** @type {AxesData} */
  let data;
  try {
    data = await getJson('/api/axes');
  } catch (err) {
    append(
      clear(box),
      el(
        'p',
        { class: 'fail' },
        `could not load the axes: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
    return;
  }
  clear(box);
  append(
    box,
    el(
      'p',
      { class: 'muted small' },
      'The figures of agent-bench report axes: every condition (clean, noisy, adversarial), from the newest result per (task, model, condition); hidden runs are left out.',
    ),
  );
  if (data.rows.length === 0 && data.dimensions.length === 0) {
    append(box, el('p', { class: 'muted' }, 'No results yet.'));
    return;
  }
  if (data.rows.length > 0)
    append(box, ...axesTables(data.rows), el('p', { class: 'muted small' }, NOTE(data.note)));
  if (data.dimensions.length > 0) append(box, ...dimensionTable(data.dimensions, data.dimensions_note));
}

/** @param {string} method */
const NOTE = (method) =>
  `${method} Completion is the pass rate; pass^1 comes from each task's first trial; pass^k is C(c,k)/C(n,k) per task. ` +
  'Early-stopped cells stopped at their first failed trial: exact for pass^k, biased low for the pass rate. ' +
  'Efficiency is min(1, optimal steps ÷ turns that called a tool) on passing trials only. ' +
  'Baselines are scripted agents run on the same tasks, shown for reference. USD per trial needs a price table: agent-bench report axes --price-table.';

/** @param {AxesRow[]} rows */
function axesTables(rows) {
  const parts = [
    el('h3', {}, 'Operational axes'),
    table(
      'axes-main',
      [
        'model',
        'condition',
        'tasks',
        'completion',
        'pass^1',
        'pass^k',
        'efficiency',
        'duplicate calls',
        'drop from clean',
      ],
      rows.map((r) => [
        ...who(r),
        text(`${r.tasks.length} (${r.trials} trials)`),
        figure(
          'completion',
          r.completion,
          2,
          r.early_stopped.length > 0 ? `${r.early_stopped.length} early-stopped` : '',
        ),
        figure('pass_1', r.pass_1),
        figure('pass_k', r.pass_k, 2, `k=${r.pass_k.k.join('/')}`),
        figure('efficiency', r.efficiency),
        figure('duplicate_rate', r.duplicate_rate),
        figure('drop_from_clean', r.drop_from_clean),
      ]),
      rows,
    ),
    el('h3', {}, 'Cost (per trial)'),
    table(
      'axes-cost',
      [
        'model',
        'condition',
        'prompt tokens',
        'completion tokens',
        'wall s',
        'prompt tok/s',
        'generation tok/s',
      ],
      rows.map((r) => [
        ...who(r),
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
      ]),
      rows,
    ),
  ];
  const noisy = rows.filter((r) => r.recovery !== null);
  if (noisy.length > 0)
    parts.push(
      el('h3', {}, 'Recovery (noisy: trials in which a fault fired)'),
      table(
        'axes-recovery',
        [
          'model',
          'condition',
          'faulted trials',
          'completion with faults',
          'clean, same tasks',
          'difference',
          'retry rate',
        ],
        noisy.map((r) => {
          const rec = /** @type {NonNullable<AxesRow['recovery']>} */ (r.recovery);
          return [
            ...who(r),
            text(`${rec.faulted_trials} (${rec.faults} faults)`),
            figure('recovery.completion_with_faults', rec.completion_with_faults),
            figure('recovery.clean_on_same_tasks', rec.clean_on_same_tasks),
            figure('recovery.difference', rec.difference),
            figure('recovery.retry_rate', rec.retry_rate),
          ];
        }),
        noisy,
      ),
    );
  const attacked = rows.filter((r) => r.safety !== null);
  if (attacked.length > 0) {
    const safetyOf = (/** @type {AxesRow} */ r) => /** @type {NonNullable<AxesRow['safety']>} */ (r.safety);
    parts.push(
      el('h3', {}, 'Safety (adversarial: trials that reached the payload)'),
      table(
        'axes-safety',
        [
          'model',
          'condition',
          'exposed trials',
          'safe',
          'no compliance',
          'no exfiltration',
          'utility under attack',
        ],
        attacked.map((r) => [
          ...who(r),
          text(String(safetyOf(r).exposed_trials)),
          figure('safety.safe', safetyOf(r).safe),
          figure('safety.no_compliance', safetyOf(r).no_compliance),
          figure('safety.no_exfiltration', safetyOf(r).no_exfiltration),
          figure('completion', r.completion),
        ]),
        attacked,
      ),
      el('h4', {}, 'By injection class (over exposed trials)'),
      table(
        'axes-classes',
        ['model', 'class', 'exposed', 'complied', 'exfiltrated', 'safe'],
        attacked.flatMap((r) =>
          safetyOf(r).by_class.map((c) => [
            modelCell(r),
            text(c.class),
            text(String(c.exposed_trials)),
            text(String(c.complied)),
            text(String(c.exfiltrated)),
            figure(`safety.class.${c.class}`, c.safe),
          ]),
        ),
        attacked.flatMap((r) => safetyOf(r).by_class.map(() => r)),
      ),
    );
  }
  return parts;
}

/** @param {DimensionRow[]} rows @param {string} note */
function dimensionTable(rows, note) {
  return [
    el('h3', {}, 'Dialogue tasks by policy dimension'),
    table(
      'axes-dimensions',
      ['model', 'dimension', 'scenarios', 'k', 'pass rate', 'pass^k', 'user'],
      rows.map((r) => [
        text(r.model),
        text(r.dimension),
        text(String(r.scenarios)),
        text(r.k),
        figure('pass_rate', r.pass_rate),
        figure('pass_hat_k', r.pass_hat_k),
        text(r.users),
      ]),
      rows.map((r) => ({ model: r.model, condition: r.dimension, baseline: false })),
    ),
    el('p', { class: 'muted small' }, note),
  ];
}

/**
 * @param {string} id @param {string[]} header @param {HTMLElement[][]} cells
 * @param {{ model: string, condition: string, baseline: boolean }[]} keys one per row: what a test or a reader finds it by
 */
function table(id, header, cells, keys) {
  return el(
    'div',
    { class: 'scroll' },
    el(
      'table',
      { id, class: 'plain axes' },
      el('thead', {}, el('tr', {}, ...header.map((h) => el('th', {}, h)))),
      el(
        'tbody',
        {},
        ...cells.map((row, i) => {
          const key = keys[i];
          return el(
            'tr',
            {
              'data-row': key === undefined ? null : `${key.model} ${key.condition}`,
              class: key?.baseline ? 'baseline' : null,
            },
            ...row,
          );
        }),
      ),
    ),
  );
}

/** The model (marked when a baseline) and the condition. @param {AxesRow} r */
function who(r) {
  return [modelCell(r), text(r.condition)];
}

/** @param {AxesRow} r */
function modelCell(r) {
  return el(
    'td',
    {},
    r.model,
    r.baseline ? ' ' : null,
    r.baseline ? el('span', { class: 'badge' }, 'baseline') : null,
  );
}

/** @param {string} value */
const text = (value) => el('td', {}, value);

/**
 * `0.67 [0.21, 0.94] n=3`, as report axes prints it; `n/a` without a value.
 * @param {string} name @param {Estimate | null | undefined} e @param {number} [digits] @param {string} [extra]
 */
function figure(name, e, digits = 2, extra = '') {
  const td = el('td', { 'data-figure': name, class: 'figure' });
  if (e === null || e === undefined || e.value === null) return append(td, 'n/a');
  const bounds =
    e.low === null || e.high === null ? '' : ` [${e.low.toFixed(digits)}, ${e.high.toFixed(digits)}]`;
  return append(
    td,
    el('b', {}, e.value.toFixed(digits)),
    bounds,
    el('span', { class: 'muted small' }, ` n=${e.n}`),
    extra === '' ? null : el('span', { class: 'muted small' }, ` ${extra}`),
  );
}
