// The dashboard page: loads the results index once (summaries only), then each view renders from it.
import { getJson, postJson } from './api.js';
import { showAxes } from './axes.js';
import { showCompare } from './compare.js';
import { openCell } from './detail.js';
import { byId, clear } from './dom.js';
import { showFlags } from './flags.js';
import { renderMatrix } from './matrix.js';
import { showRadar } from './radar.js';
import { startRunPanel } from './run.js';

/**
 * @typedef {{ file: string, run_id: string, task_id: string, model: string, status: string, k: number,
 *   trials_run: number, passed_trials: number, pass_all_k: boolean, pass_hat_k: number | null, score: number,
 *   avg_turns: number, elapsed_sec: number, tamper_detected_count: number, invalid_tool_call_count: number,
 *   early_stopped: boolean, score_basis: string, comparison: string, comparable: boolean, non_comparable_reasons: string[], started_at: string,
 *   updated_at: string, newest: boolean, hidden: boolean, label: string, condition_key: string, usage: { prompt_tokens: number, completion_tokens: number }, skills: Record<string, {kind: string, reach_rate: number, avg_turns: number | null}>,
 *   judge?: { model: string, mean_score: number | null, graded: number, tried: number } | null }} Summary
 * @typedef {{ results: Summary[], newest: Summary[], models: string[], tasks: string[],
 *   labels: Map<string, string> }} State `labels`: each model's short name (the server's), shown for it
 */

/** @type {State} */
const state = { results: [], newest: [], models: [], tasks: [], labels: new Map() };
let view = 'matrix';

async function loadIndex() {
  const { results } = await getJson('/api/index');
  state.results = results;
  state.newest = results.filter((/** @type {Summary} */ r) => r.newest);
  state.labels = new Map(results.map((/** @type {Summary} */ r) => [r.model, r.label]));
  state.models = [...new Set(state.newest.map((r) => r.model))].sort();
  state.tasks = [...new Set(state.newest.map((r) => r.task_id))].sort();
  const trials = results.reduce((/** @type {number} */ n, /** @type {Summary} */ r) => n + r.trials_run, 0);
  const early = state.newest.filter((r) => r.early_stopped).length;
  const hidden = results.filter((/** @type {Summary} */ r) => r.hidden).length;
  const settings = new Set(state.newest.map((r) => r.comparison));
  byId('subtitle').textContent =
    `${state.newest.length} result(s) shown · ${state.models.length} model(s) · ${state.tasks.length} task(s) · ` +
    `${results.length} file(s), ${trials} trial(s) · newest result per (task, model)` +
    (hidden === 0 ? '' : ` · ${hidden} hidden run(s) left out`) +
    (early === 0 ? '' : ` · ${early} early-stopped (scores from fewer than k trials)`) +
    (settings.size < 2
      ? ''
      : ` · ${settings.size} different k / early stop settings: compare only like with like`);
}

/** @param {string} name */
function show(name) {
  view = name;
  for (const button of document.querySelectorAll('#tabs button')) {
    button.setAttribute('aria-pressed', String(button.getAttribute('data-view') === name));
  }
  for (const section of document.querySelectorAll('main > section')) {
    /** @type {HTMLElement} */ (section).hidden = section.id !== `view-${name}`;
  }
  render();
}

/** Hide / show again and move to trash: the server changes the folder's state, then every view re-reads it. */
const actions = {
  /** @param {string} file @param {boolean} hidden */
  async hide(file, hidden) {
    await act(() => postJson('/api/hide', { file, hidden }));
    // The detail stays open so the run can be shown again from where it was hidden.
    if (state.results.some((r) => r.file === file)) void openCell(state, file, null, actions);
  },
  /** @param {string} file */
  async trash(file) {
    if (await act(() => postJson('/api/delete', { file }))) clear(byId('detail'));
  },
};

/** @param {() => Promise<unknown>} request */
async function act(request) {
  try {
    await request();
  } catch (err) {
    byId('subtitle').textContent = `Not done: ${err instanceof Error ? err.message : String(err)}`;
    return false;
  }
  await loadIndex();
  render();
  return true;
}

function render() {
  if (view === 'matrix') renderMatrix(state, (file) => openCell(state, file, null, actions), actions.hide);
  if (view === 'flags') showFlags(state);
  if (view === 'radar') showRadar(state);
  if (view === 'axes') void showAxes(state);
  if (view === 'compare') void showCompare(state);
}

/** Deep links: #view=run, or #cell=<results file>&trial=<n> (1-based, as shown) opens that transcript. */
function followHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const cell = params.get('cell');
  const wanted = params.get('view') ?? (cell === null ? null : 'matrix');
  if (wanted !== null) show(wanted);
  if (cell !== null) {
    void openCell(state, cell, params.has('trial') ? Number(params.get('trial')) : null, actions);
  }
}

let refreshTimer = 0;
/** Re-reads the index soon (coalesced): called as runs write new results. */
function refreshSoon() {
  clearTimeout(refreshTimer);
  refreshTimer = window.setTimeout(async () => {
    await loadIndex();
    if (view !== 'run') render();
  }, 500);
}

for (const button of document.querySelectorAll('#tabs button')) {
  button.addEventListener('click', () => show(button.getAttribute('data-view') ?? 'matrix'));
}
window.addEventListener('hashchange', followHash);

try {
  await loadIndex();
} catch (err) {
  byId('subtitle').textContent =
    `could not load results: ${err instanceof Error ? err.message : String(err)}`;
}
render();
followHash();
startRunPanel(refreshSoon, async (runId) => {
  await loadIndex();
  return state.results.filter((r) => r.run_id === runId);
});
document.body.dataset.ready = 'true';
