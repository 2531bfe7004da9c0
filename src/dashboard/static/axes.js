// The Axes view: the operational axes per model and condition, as `report axes` prints them (the server
// computes them with the same code), and dialogue tasks by policy dimension, as under `report matrix`.
// Every figure carries its 95 % interval and n, so a gap within the noise reads as one.
import { getJson } from './api.js';
import { append, byId, clear, el, modelName } from './dom.js';

/**
 * @typedef {{ value: number | null, n: number, low: number | null, high: number | null }} Estimate
 * @typedef {{ kind: 'model', model: string, label: string, baseline: boolean } | { kind: 'text', text: string }
 *   | { kind: 'figure', figure: string, estimate: Estimate | null, digits: number, note: string }} AxesCell
 * @typedef {{ id: string, title: string, level: 2 | 3, header: string[],
 *   rows: { key: { model: string, condition: string, baseline: boolean }, cells: AxesCell[] }[] }} AxesTable
 * @typedef {{ model: string, dimension: string, scenarios: number, k: string, users: string,
 *   pass_rate: Estimate, pass_hat_k: Estimate }} DimensionRow
 * @typedef {{ note: string, rows: unknown[], tables: AxesTable[], dimensions: DimensionRow[], dimensions_note: string }} AxesData
 */

/** @param {import('./app.js').State} state */
export async function showAxes(state) {
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
    append(
      box,
      ...axesTables(data.tables),
      el('p', { class: 'muted small' }, NOTE(data.note)),
      ...paretoChart(),
    );
  if (data.dimensions.length > 0)
    append(box, ...dimensionTable(data.dimensions, data.dimensions_note, state.labels));
  append(box, ...(await ladderCharts()));
}

/**
 * The ladders of the folder (agent-bench ladder), newest first: each one's chart, drawn by the server.
 * @returns {Promise<HTMLElement[]>}
 */
async function ladderCharts() {
  /** @type {{ ladders: { run_id: string, suite: string, verdict: string | null, svg: string }[] }} */
  let data;
  try {
    data = await getJson('/api/ladders');
  } catch {
    return [el('p', { class: 'fail' }, 'could not load the ladders')];
  }
  if (data.ladders.length === 0) return [];
  return [
    el('h3', {}, 'Ladders'),
    el(
      'p',
      { class: 'muted small' },
      "Pass rate against memory per rung: filled points are on the Pareto front (no rung passes as often with less memory), the ringed one is the verdict's, the dashed line the target.",
    ),
    ...data.ladders.flatMap((l) => [
      el('h4', {}, `${l.suite} (ladder ${l.run_id})`),
      ...(l.verdict === null ? [] : [el('p', {}, l.verdict)]),
      el('img', {
        class: 'ladder-chart',
        src: l.svg,
        alt: `ladder ${l.run_id}: pass rate against memory`,
        width: 640,
      }),
    ]),
  ];
}

/** @param {string} method */
const NOTE = (method) =>
  `${method} Completion is the pass rate; pass^1 comes from each task's first trial; pass^k is C(c,k)/C(n,k) per task. ` +
  'Early-stopped cells stopped at their first failed trial: exact for pass^k, biased low for the pass rate. ' +
  "Finished: trials that ended on their own answer (not cut off). Agreement: pairs of a task's trials with the same final outcome (pass or fail and each outcome flag). " +
  'Efficiency (turns) is min(1, optimal steps ÷ turns that called a tool), efficiency (calls) min(1, optimal calls ÷ tool calls) with one call per optimal step, both on passing trials only. ' +
  'Baselines are scripted agents run on the same tasks, shown for reference. USD per trial needs a price table: agent-bench report axes --price-table.';

/** Cost against completion (report axes --pareto), drawn by the server; tokens or wall time per trial. */
function paretoChart() {
  const img = el('img', {
    id: 'axes-pareto',
    src: '/api/pareto.svg?cost=tokens',
    alt: 'completion against tokens per trial, the Pareto front marked',
    width: 640,
  });
  const choose = el(
    'select',
    { id: 'axes-pareto-cost', 'aria-label': 'cost' },
    el('option', { value: 'tokens' }, 'tokens per trial'),
    el('option', { value: 'wall_sec' }, 'wall seconds per trial (local models)'),
  );
  choose.addEventListener('change', () => {
    const cost = /** @type {HTMLSelectElement} */ (choose).value;
    img.setAttribute('src', `/api/pareto.svg?cost=${cost}`);
    img.setAttribute(
      'alt',
      `completion against ${cost === 'tokens' ? 'tokens' : 'wall seconds'} per trial, the Pareto front marked`,
    );
  });
  return [
    el('h3', {}, 'Cost against completion'),
    el('p', { class: 'muted small' }, 'Cost: ', choose),
    img,
    el(
      'p',
      { class: 'muted small' },
      "Filled: on the Pareto front of its condition; hollow: dominated (another model completes at least as much at no more cost); dashed squares: baselines. Bars: completion's 95 % interval. USD: agent-bench report axes --pareto usd --price-table FILE.",
    ),
  ];
}

/**
 * The tables as the server made them (src/report/axes-tables.ts, the same as report axes prints).
 * @param {AxesTable[]} tables
 */
function axesTables(tables) {
  return tables.flatMap((t) => [
    el(t.level === 2 ? 'h3' : 'h4', {}, t.title),
    table(
      t.id,
      t.header,
      t.rows.map((r) => r.cells.map(cell)),
      t.rows.map((r) => r.key),
    ),
  ]);
}

/** @param {AxesCell} c */
function cell(c) {
  if (c.kind === 'model') return modelCell(c);
  if (c.kind === 'text') return text(c.text);
  return figure(c.figure, c.estimate, c.digits, c.note);
}

/** @param {DimensionRow[]} rows @param {string} note @param {Map<string, string>} labels */
function dimensionTable(rows, note, labels) {
  return [
    el('h3', {}, 'Dialogue tasks by policy dimension'),
    table(
      'axes-dimensions',
      ['model', 'dimension', 'scenarios', 'k', 'pass rate', 'pass^k', 'user'],
      rows.map((r) => [
        el('td', {}, modelName(labels, r.model)),
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

/** The model by its short name (the full one on hover), marked when a baseline. @param {{ model: string, label: string, baseline: boolean }} r */
function modelCell(r) {
  return el(
    'td',
    { title: r.model },
    r.label,
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
