// The models × tasks matrix: one button per cell (newest result); clicking it opens the transcripts.
import { append, byId, clear, duration, el } from './dom.js';

/** @typedef {import('./app.js').State} State @typedef {import('./app.js').Summary} Summary */

/** @param {State} state @param {(file: string) => void} onCell */
export function renderMatrix(state, onCell) {
  const table = clear(byId('matrix'));
  byId('matrix-legend').textContent =
    '✓ pass^k: all k trials passed · ✗ score (n of k=K trials): mean trial score over the n trials run when not all passed ' +
    '(early-stopped: the run stopped at its first failure, so n < k) · turns and time are means per trial · ' +
    'tamper = trials that touched files they must not · hallucinated = invalid tool calls · † = non-default settings (not comparable). ' +
    'Compare cells only at the same k and early stop setting. Click a cell for its transcripts.';
  if (state.newest.length === 0) {
    append(table, el('caption', {}, 'No results yet: run `agent-bench run`, or start one from the Run tab.'));
    return;
  }
  const byCell = new Map(state.newest.map((r) => [`${r.task_id}\u0000${r.model}`, r]));
  const head = el('tr', {}, el('th', { scope: 'col' }, 'task \\ model'));
  state.models.forEach((model, i) => {
    append(head, el('th', { scope: 'col', title: model }, el('span', { class: `swatch c${i % 8}` }), model));
  });
  const body = el('tbody');
  for (const task of state.tasks) {
    const row = el('tr', {}, el('th', { scope: 'row' }, task));
    for (const model of state.models) {
      const r = byCell.get(`${task}\u0000${model}`);
      if (r === undefined) {
        append(row, el('td', { class: 'empty' }, '—'));
        continue;
      }
      const button = cellButton(r);
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

/** @param {Summary} r */
function cellButton(r) {
  const mean = r.trials_run === 0 ? 0 : r.elapsed_sec / r.trials_run;
  const verdict = r.pass_all_k
    ? el('span', { class: 'verdict pass' }, `✓ pass^${r.k}`)
    : el('span', { class: 'verdict fail' }, `✗ ${r.score.toFixed(2)} (${r.score_basis})`);
  const badges = [];
  if (r.status !== 'complete') badges.push(el('span', { class: 'badge warn' }, r.status));
  if (r.tamper_detected_count > 0)
    badges.push(el('span', { class: 'badge bad' }, `tamper ×${r.tamper_detected_count}`));
  if (r.invalid_tool_call_count > 0) {
    badges.push(el('span', { class: 'badge warn' }, `hallucinated ${r.invalid_tool_call_count}`));
  }
  if (!r.comparable) {
    badges.push(
      el('span', { class: 'badge', title: r.non_comparable_reasons.join('; ') }, '† not comparable'),
    );
  }
  return el(
    'button',
    { type: 'button', class: 'cell', 'data-file': r.file, 'aria-label': `${r.task_id} × ${r.model}` },
    verdict,
    el('br'),
    el(
      'span',
      { class: 'small muted' },
      `score ${r.score.toFixed(2)} · ${r.passed_trials}/${r.trials_run} passed · ${r.avg_turns} turns · ${duration(mean)}`,
    ),
    el('br'),
    ...badges,
  );
}
