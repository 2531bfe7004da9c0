// A clicked cell: the result's facts and how it was run, hide / trash buttons, its other runs (each can
// be compared with this one), and one foldable transcript per trial (loaded on open). Trials are
// numbered from 1, as the CLI prints them (the results file's `index` is 0-based).
import { getJson, q } from './api.js';
import { append, byId, clear, conditionBadge, duration, el, modelName, num } from './dom.js';
import { renderRunCompare } from './run-compare.js';
import { pairs, runFacts } from './run-facts.js';
import { renderTranscript } from './transcript.js';

/** @typedef {import('./app.js').State} State @typedef {import('./app.js').Summary} Summary */
/**
 * @typedef {{ hide(file: string, hidden: boolean): Promise<void>, trash(file: string): Promise<void> }} RunActions
 */

/**
 * @param {State} state @param {string} file @param {number | null} openTrial 1-based, as shown
 * @param {RunActions} actions
 */
export async function openCell(state, file, openTrial, actions) {
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
  const condition = state.results.find((r) => r.file === file)?.condition_key ?? 'clean';
  append(
    box,
    el(
      'h2',
      {},
      `${result.task_id} × `,
      modelName(state.labels, result.model),
      ' ',
      conditionBadge(condition),
    ),
    el('div', { class: 'panel meta' }, ...pairs(resultFacts(result, file))),
    el(
      'details',
      { class: 'panel', id: 'run-facts', open: true },
      el('summary', {}, 'Sampling settings and server'),
      el('div', { class: 'meta' }, ...pairs(runFacts(result.settings, result.environment ?? {}))),
    ),
    runButtons(state, file, actions),
  );
  for (const list of otherRuns(state, result, file, condition, actions)) append(box, list);
  append(box, el('div', { id: 'run-compare' }));
  const wanted = openTrial === null ? (result.trials[0]?.index ?? null) : openTrial - 1;
  for (const trial of result.trials) append(box, trialSection(file, trial, trial.index === wanted));
  box.scrollIntoView({ block: 'start' });
}

/**
 * pass^k in words true to what was measured, as the CLI's src/results/pass-k-words.ts says it: FAIL
 * only when a measured trial failed; an interrupted or unmeasured task says how far it got.
 * @param {any} r a results file @returns {string}
 */
function verdictWords(r) {
  if (r.pass_all_k) return `✓ pass^${r.k}`;
  /** @type {{ status: string }[]} */
  const trials = r.trials;
  const passed = trials.filter((t) => t.status === 'passed').length;
  const measured = trials.filter((t) => t.status !== 'error').length;
  if (trials.some((t) => t.status === 'failed')) return `✗ not all ${r.k} trials passed`;
  if (r.status === 'interrupted')
    return `interrupted after ${trials.length} of ${r.k} trials (${passed} passed)`;
  return measured === 0
    ? 'not measured: no trial measured'
    : `not decided: ${measured} of ${r.k} trials measured`;
}

/**
 * The result's verdict and where it comes from, as label/value pairs.
 * @param {any} result a results file as /api/result sends it @param {string} file
 * @returns {[string, string][]}
 */
function resultFacts(result, file) {
  const early = result.early_stopped ? ', early-stopped' : '';
  return [
    ['verdict', verdictWords(result)],
    ['pass^k estimate', result.pass_hat_k === null ? '—' : num(result.pass_hat_k)],
    ['score', `${num(result.score)} (${result.trials_run} of k=${result.k} trials${early})`],
    [
      'trials',
      `${result.trials_run} run of k=${result.k}${result.early_stopped ? ' (early-stopped at the first failure)' : ''}${result.settings?.early_stop ? ' · --early-stop' : ''}`,
    ],
    ['status', result.status + (result.error ? `: ${result.error}` : '')],
    ['comparable', result.comparable ? 'yes' : `no: ${result.non_comparable_reasons.join('; ')}`],
    ['run', `${result.run_id} · started ${result.started_at}`],
    ['task version', result.task_version],
    ['file', file],
  ];
}

/**
 * The other runs of the same task and model, newest first: those of this run's condition (the cell),
 * each to open or to compare with this one, then those of other conditions, each labelled and to open
 * only, since a noisy or adversarial run does not compare with a clean one.
 * @param {State} state @param {any} result @param {string} file @param {string} condition this run's
 * @param {RunActions} actions
 */
function otherRuns(state, result, file, condition, actions) {
  const older = state.results
    .filter((r) => r.task_id === result.task_id && r.model === result.model && r.file !== file)
    .sort((a, b) => b.started_at.localeCompare(a.started_at));
  const same = older.filter((r) => r.condition_key === condition);
  const other = older.filter((r) => r.condition_key !== condition);
  const mine = state.results.find((x) => x.file === file);
  const lists = [];
  if (same.length > 0) {
    const list = el(
      'p',
      { class: 'small', id: 'other-runs' },
      'Other runs of this cell (',
      conditionBadge(condition),
      '): ',
    );
    for (const r of same) {
      const compare = el(
        'button',
        { type: 'button', class: 'small-button', 'data-compare': r.file },
        'compare',
      );
      compare.addEventListener('click', () => {
        if (mine !== undefined) renderRunCompare(byId('run-compare'), mine, r, state.labels);
        byId('run-compare').scrollIntoView({ block: 'nearest' });
      });
      append(list, el('span', { class: 'other-run' }, runLink(state, r, actions), compare));
    }
    lists.push(list);
  }
  if (other.length > 0) {
    const list = el(
      'p',
      { class: 'small', id: 'other-conditions' },
      'Runs under other conditions (not comparable with this one): ',
    );
    for (const r of other)
      append(
        list,
        el('span', { class: 'other-run' }, conditionBadge(r.condition_key), runLink(state, r, actions)),
      );
    lists.push(list);
  }
  return lists;
}

/** A button that opens a run. @param {State} state @param {Summary} r @param {RunActions} actions */
function runLink(state, r, actions) {
  const link = el(
    'button',
    { type: 'button', class: 'badge', 'data-file': r.file },
    `${r.started_at} ${r.pass_all_k ? '✓' : `✗ ${r.score.toFixed(2)}`}`,
  );
  link.addEventListener('click', () => void openCell(state, r.file, null, actions));
  return link;
}

/** Hide (or show again) and move-to-trash for the run on screen. @param {State} state @param {string} file @param {RunActions} actions */
function runButtons(state, file, actions) {
  const hidden = state.results.find((r) => r.file === file)?.hidden === true;
  const hide = el(
    'button',
    { type: 'button', id: 'run-hide' },
    hidden ? 'Show in the matrix again' : 'Hide this run',
  );
  hide.addEventListener('click', () => void actions.hide(file, !hidden));
  const trash = el('button', { type: 'button', id: 'run-trash', class: 'danger' }, 'Move to trash…');
  trash.addEventListener('click', () => {
    if (confirm(`Move ${file} to the results folder's .trash/? (You can move it back by hand.)`)) {
      void actions.trash(file);
    }
  });
  return el(
    'p',
    { class: 'row' },
    hide,
    trash,
    el('span', { class: 'small muted' }, hidden ? 'This run is hidden from the matrix.' : ''),
  );
}

/**
 * The optional LLM judge's grade of a trial, in words: apart from the verdict, which it never changes.
 * @param {{ model: string, score: number | null, verdict: string | null, error?: string }} j
 */
function judgeWords(j) {
  if (j.score === null) return `judge ${j.model}: no grade`;
  return `judge ${j.model}: ${j.score.toFixed(2)}${j.verdict === null ? '' : ` (${j.verdict})`}`;
}

/**
 * @param {string} file
 * @param {{index: number, passed: boolean, status: string, score: number, turns: number, elapsed_sec: number,
 *   harness_sec: number, tamper_detected: boolean, failure_reason: string | null,
 *   judge?: { model: string, score: number | null, verdict: string | null, reason: string, error?: string }}} t
 * @param {boolean} open
 */
function trialSection(file, t, open) {
  const verdict = t.passed
    ? el('span', { class: 'pass' }, '✓ passed')
    : el('span', { class: 'fail' }, `✗ ${t.status}`);
  const summary = el(
    'summary',
    {},
    `Trial ${t.index + 1} `,
    verdict,
    ` · score ${num(t.score)} · ${t.turns} turns · ${duration(t.elapsed_sec)} (+${duration(t.harness_sec)} harness)`,
    t.tamper_detected ? el('span', { class: 'badge bad' }, '⚠ tamper') : null,
    t.failure_reason === null ? null : el('span', { class: 'muted' }, ` · ${t.failure_reason}`),
    t.judge === undefined
      ? null
      : el('span', { class: 'muted', title: t.judge.error ?? t.judge.reason }, ` · ${judgeWords(t.judge)}`),
  );
  const body = el('div', { class: 'transcript' });
  const details = el('details', { class: 'trial panel', 'data-trial': t.index + 1, open }, summary, body);
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
