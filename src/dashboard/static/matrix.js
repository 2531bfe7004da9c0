// The models × tasks matrix: one button per cell (newest visible result); clicking it opens the
// transcripts. Filters and sort order come from the controls above it (matrix-view.js).
import { append, byId, clear, conditionBadge, duration, el, modelName } from './dom.js';
import { axes, DEFAULT_VIEW, meanTrialSec, visibleCells } from './matrix-view.js';

/** @typedef {import('./app.js').State} State @typedef {import('./app.js').Summary} Summary */
/** @typedef {import('./matrix-view.js').MatrixView} MatrixView */

/** @type {MatrixView} */
const view = { ...DEFAULT_VIEW };
let wired = false;

/**
 * @param {State} state @param {(file: string) => void} onCell
 * @param {(file: string, hidden: boolean) => Promise<void>} onHide
 */
export function renderMatrix(state, onCell, onHide) {
  fillControls(state, () => renderMatrix(state, onCell, onHide));
  const table = clear(byId('matrix'));
  byId('matrix-legend').textContent =
    '✓ pass^k: all k trials passed · ✗ score (n of k=K trials): mean trial score over the n trials run when not all passed ' +
    '(early-stopped: the run stopped at its first failure, so n < k) · turns and time are means per trial · ' +
    'tamper = trials that touched files they must not · hallucinated = invalid tool calls · † = non-default settings (not comparable). ' +
    'Compare cells only at the same k and early stop setting. Click a cell for its transcripts. ' +
    'Cells are clean runs; noisy and adversarial runs are listed, labelled, under each cell and in the Axes tab. ' +
    'Column heads show short model names (a file path by its file name); hover one for the full name.';
  renderHidden(state, onHide);
  if (state.newest.length === 0) {
    append(table, el('caption', {}, 'No results yet: run `agent-bench run`, or start one from the Run tab.'));
    return;
  }
  const cells = visibleCells(state.newest, view);
  byId('matrix-count').textContent =
    cells.length === state.newest.length ? '' : `${cells.length} of ${state.newest.length} cells shown`;
  if (cells.length === 0) {
    append(table, el('caption', {}, 'No cell matches these filters.'));
    return;
  }
  const { tasks, models } = axes(cells, view.sort);
  const byCell = new Map(cells.map((r) => [`${r.task_id}\u0000${r.model}`, r]));
  const head = el('tr', {}, el('th', { scope: 'col' }, 'task \\ model'));
  for (const model of models) {
    // The swatch colour follows the model, whatever order the columns are in.
    const i = state.models.indexOf(model);
    append(
      head,
      el(
        'th',
        { scope: 'col', title: model },
        el('span', { class: `swatch c${i % 8}` }),
        state.labels.get(model) ?? model,
      ),
    );
  }
  const body = el('tbody');
  for (const task of tasks) {
    const row = el('tr', {}, el('th', { scope: 'row' }, task));
    for (const model of models) {
      const r = byCell.get(`${task}\u0000${model}`);
      if (r === undefined) {
        append(row, el('td', { class: 'empty' }, '—'));
        continue;
      }
      const button = cellButton(r, view.flag, state.labels.get(model) ?? model);
      button.addEventListener('click', () => {
        for (const b of table.querySelectorAll('.cell.selected')) b.classList.remove('selected');
        button.classList.add('selected');
        onCell(r.file);
      });
      append(row, el('td', {}, button));
    }
    append(body, row);
  }
  append(table, el('thead', {}, head), body);
}

/** @param {State} state @param {() => void} rerender */
function fillControls(state, rerender) {
  const failures = /** @type {HTMLInputElement} */ (byId('filter-failures'));
  const selects = {
    model: /** @type {HTMLSelectElement} */ (byId('filter-model')),
    task: /** @type {HTMLSelectElement} */ (byId('filter-task')),
    flag: /** @type {HTMLSelectElement} */ (byId('filter-flag')),
  };
  const sort = /** @type {HTMLSelectElement} */ (byId('matrix-sort'));
  const flags = [...new Set(state.newest.flatMap((r) => Object.keys(r.skills)))].sort();
  const choices = { model: state.models, task: state.tasks, flag: flags };
  for (const key of /** @type {const} */ (['model', 'task', 'flag'])) {
    const select = selects[key];
    // A choice that no longer exists (its runs were hidden or deleted) falls back to "all".
    if (!choices[key].includes(view[key])) view[key] = '';
    clear(select);
    append(select, el('option', { value: '' }, 'all'));
    for (const c of choices[key]) {
      const text = key === 'model' ? (state.labels.get(c) ?? c) : c;
      append(select, el('option', { value: c, selected: c === view[key], title: c }, text));
    }
  }
  failures.checked = view.failuresOnly;
  sort.value = view.sort;
  if (wired) return;
  wired = true;
  failures.addEventListener('change', () => {
    view.failuresOnly = failures.checked;
    rerender();
  });
  for (const key of /** @type {const} */ (['model', 'task', 'flag'])) {
    selects[key].addEventListener('change', () => {
      view[key] = selects[key].value;
      rerender();
    });
  }
  sort.addEventListener('change', () => {
    view.sort = /** @type {MatrixView['sort']} */ (sort.value);
    rerender();
  });
}

/** Hidden runs, each with a button to show it again. @param {State} state @param {(file: string, hidden: boolean) => Promise<void>} onHide */
function renderHidden(state, onHide) {
  const box = clear(byId('hidden-runs'));
  const hidden = state.results.filter((r) => r.hidden);
  box.hidden = hidden.length === 0;
  if (hidden.length === 0) return;
  const list = el('ul', { class: 'plain-list' });
  for (const r of hidden) {
    const show = el('button', { type: 'button', class: 'small-button' }, 'Show again');
    show.addEventListener('click', () => void onHide(r.file, false));
    append(
      list,
      el(
        'li',
        { 'data-file': r.file },
        `${r.task_id} × `,
        modelName(state.labels, r.model),
        ' ',
        conditionBadge(r.condition_key),
        ` · started ${r.started_at} · ${r.pass_all_k ? `✓ pass^${r.k}` : `✗ ${r.score.toFixed(2)}`} `,
        show,
      ),
    );
  }
  append(box, el('summary', {}, `${hidden.length} hidden run(s), left out of every view`), list);
}

/** @param {Summary} r @param {string} flag @param {string} label the model's short name */
function cellButton(r, flag, label) {
  const verdict = r.pass_all_k
    ? el('span', { class: 'verdict pass' }, `✓ pass^${r.k}`)
    : el('span', { class: 'verdict fail' }, `✗ ${r.score.toFixed(2)} (${r.score_basis})`);
  const badges = [];
  const reach = flag === '' ? undefined : r.skills[flag];
  if (reach !== undefined) {
    badges.push(
      el(
        'span',
        { class: `badge ${reach.reach_rate < 1 ? 'bad' : ''}` },
        `${flag} ${Math.round(reach.reach_rate * 100)}%`,
      ),
    );
  }
  if (r.status !== 'complete') badges.push(el('span', { class: 'badge warn' }, r.status));
  if (r.tamper_detected_count > 0)
    badges.push(el('span', { class: 'badge bad' }, `tamper ×${r.tamper_detected_count}`));
  if (r.invalid_tool_call_count > 0) {
    badges.push(el('span', { class: 'badge warn' }, `hallucinated ${r.invalid_tool_call_count}`));
  }
  // The optional LLM judge (run --judge-model): its grade, shown apart from the verdict above.
  if (r.judge != null) {
    const grade = r.judge.mean_score === null ? 'no grade' : r.judge.mean_score.toFixed(2);
    badges.push(
      el(
        'span',
        {
          class: 'badge',
          title: `LLM judge ${r.judge.model}: ${r.judge.graded} of ${r.judge.tried} graded; never part of the score`,
        },
        `judge ${grade}`,
      ),
    );
  }
  if (!r.comparable) {
    badges.push(
      el('span', { class: 'badge', title: r.non_comparable_reasons.join('; ') }, '† not comparable'),
    );
  }
  return el(
    'button',
    { type: 'button', class: 'cell', 'data-file': r.file, 'aria-label': `${r.task_id} × ${label}` },
    verdict,
    el('br'),
    el(
      'span',
      { class: 'small muted' },
      `score ${r.score.toFixed(2)} · ${r.passed_trials}/${r.trials_run} passed · ${r.avg_turns} turns · ${duration(meanTrialSec(r))}`,
    ),
    el('br'),
    ...badges,
  );
}
