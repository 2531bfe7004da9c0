// A clicked cell: the result's facts, its other runs, and one foldable transcript per trial (loaded on open).
import { getJson, q } from './api.js';
import { append, byId, clear, duration, el, num } from './dom.js';
import { renderTranscript } from './transcript.js';

/** @typedef {import('./app.js').State} State */

/** @param {State} state @param {string} file @param {number | null} openTrial */
export async function openCell(state, file, openTrial) {
  const box = clear(byId('detail'));
  append(box, el('p', { class: 'muted' }, 'loading…'));
  let result;
  try {
    result = await getJson(`/api/result?file=${q(file)}`);
  } catch (err) {
    clear(box);
    append(
      box,
      el(
        'p',
        { class: 'fail' },
        `could not load ${file}: ${err instanceof Error ? err.message : String(err)}`,
      ),
    );
    return;
  }
  clear(box);
  const env = result.environment ?? {};
  const estimate = result.pass_hat_k === null ? '—' : num(result.pass_hat_k);
  append(
    box,
    el('h2', {}, `${result.task_id} × ${result.model}`),
    el(
      'div',
      { class: 'panel meta' },
      ...pairs([
        ['verdict', result.pass_all_k ? `✓ pass^${result.k}` : `✗ not all ${result.k} trials passed`],
        ['pass^k estimate', estimate],
        [
          'score',
          `${num(result.score)} (${result.trials_run} of k=${result.k} trials${result.early_stopped ? ', early-stopped' : ''})`,
        ],
        [
          'trials',
          `${result.trials_run} run of k=${result.k}${result.early_stopped ? ' (early-stopped at the first failure)' : ''}${result.settings?.early_stop ? ' · --early-stop' : ''}`,
        ],
        ['status', result.status + (result.error ? `: ${result.error}` : '')],
        ['comparable', result.comparable ? 'yes' : `no: ${result.non_comparable_reasons.join('; ')}`],
        ['run', `${result.run_id} · started ${result.started_at}`],
        ['server', `${env.server?.kind ?? 'unknown'} ${env.server?.version ?? ''} ${env.base_url ?? ''}`],
        ['task version', result.task_version],
        ['file', file],
      ]),
    ),
  );
  const older = state.results
    .filter((r) => r.task_id === result.task_id && r.model === result.model && r.file !== file)
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
  if (older.length > 0) {
    const list = el('p', { class: 'small' }, 'Other runs of this cell: ');
    for (const r of older) {
      const link = el(
        'button',
        { type: 'button', class: 'badge' },
        `${r.started_at} ${r.pass_all_k ? '✓' : `✗ ${r.score.toFixed(2)}`}`,
      );
      link.addEventListener('click', () => void openCell(state, r.file, null));
      append(list, link);
    }
    append(box, list);
  }
  const wanted = openTrial ?? result.trials[0]?.index ?? null;
  for (const trial of result.trials) append(box, trialSection(file, trial, trial.index === wanted));
  box.scrollIntoView({ block: 'start' });
}

/** @param {[string, string][]} rows */
function pairs(rows) {
  return rows.flatMap(([k, v]) => [el('span', { class: 'muted' }, k), el('span', {}, v)]);
}

/**
 * @param {string} file
 * @param {{index: number, passed: boolean, status: string, score: number, turns: number, elapsed_sec: number,
 *   harness_sec: number, tamper_detected: boolean, failure_reason: string | null}} t
 * @param {boolean} open
 */
function trialSection(file, t, open) {
  const verdict = t.passed
    ? el('span', { class: 'pass' }, '✓ passed')
    : el('span', { class: 'fail' }, `✗ ${t.status}`);
  const summary = el(
    'summary',
    {},
    `Trial ${t.index} `,
    verdict,
    ` · score ${num(t.score)} · ${t.turns} turns · ${duration(t.elapsed_sec)} (+${duration(t.harness_sec)} harness)`,
    t.tamper_detected ? el('span', { class: 'badge bad' }, '⚠ tamper') : null,
    t.failure_reason === null ? null : el('span', { class: 'muted' }, ` · ${t.failure_reason}`),
  );
  const body = el('div', { class: 'transcript' });
  const details = el('details', { class: 'trial panel', 'data-trial': t.index, open }, summary, body);
  let loaded = false;
  const load = async () => {
    if (loaded || !(/** @type {HTMLDetailsElement} */ (details).open)) return;
    loaded = true;
    append(body, el('p', { class: 'muted' }, 'loading transcript…'));
    try {
      const data = await getJson(`/api/trial?file=${q(file)}&index=${t.index}`);
      clear(body);
      renderTranscript(body, data);
    } catch (err) {
      loaded = false;
      clear(body);
      append(
        body,
        el('p', { class: 'fail' }, `could not load: ${err instanceof Error ? err.message : String(err)}`),
      );
    }
  };
  details.addEventListener('toggle', () => void load());
  if (open) void load();
  return details;
}
