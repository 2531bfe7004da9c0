// What each model built for one task, side by side (newest result per model; one trial each, selectable),
// under one condition at a time: a noisy or adversarial run never sits beside a clean one.

import { getJson, q } from './api.js';
import { preview } from './artifacts.js';
import { append, byId, clear, conditionBadge, el } from './dom.js';

/** @typedef {import('./app.js').State} State @typedef {import('./artifacts.js').Artifact} Artifact */
/** @typedef {{ model: string, label: string, pass_all_k: boolean, score: number, trials: {index: number, passed: boolean, artifacts: Artifact[]}[] }} Built */

let wired = false;
/** The newest load: one that finds a newer load started while it waited draws nothing (else both append their panels). */
let generation = 0;

/** @param {State} state */
export async function showCompare(state) {
  const taskSelect = /** @type {HTMLSelectElement} */ (byId('compare-task'));
  const pathSelect = /** @type {HTMLSelectElement} */ (byId('compare-path'));
  const conditionSelect = /** @type {HTMLSelectElement} */ (byId('compare-condition'));
  const previous = taskSelect.value;
  clear(taskSelect);
  for (const task of state.tasks)
    append(taskSelect, el('option', { value: task, selected: task === previous }, task));
  if (!wired) {
    wired = true;
    taskSelect.addEventListener('change', () => void load(taskSelect.value, pathSelect, true));
    pathSelect.addEventListener('change', () => void load(taskSelect.value, pathSelect, false));
    conditionSelect.addEventListener('change', () => void load(taskSelect.value, pathSelect, false));
  }
  if (taskSelect.value !== '') await load(taskSelect.value, pathSelect, previous !== taskSelect.value);
}

/** @param {string} task @param {HTMLSelectElement} pathSelect @param {boolean} newTask */
async function load(task, pathSelect, newTask) {
  const mine = ++generation;
  const conditionSelect = /** @type {HTMLSelectElement} */ (byId('compare-condition'));
  const wanted = newTask ? 'clean' : conditionSelect.value || 'clean';
  /** @type {{ condition: string, conditions: string[], models: Built[] }} */
  const data = await getJson(`/api/compare?task=${q(task)}&condition=${q(wanted)}`);
  if (mine !== generation) return;
  const grid = clear(byId('compare-grid'));
  clear(conditionSelect);
  for (const c of data.conditions)
    append(conditionSelect, el('option', { value: c, selected: c === data.condition }, c));
  const paths = [
    ...new Set(data.models.flatMap((m) => m.trials.flatMap((t) => t.artifacts.map((a) => a.path)))),
  ].sort();
  if (newTask || !paths.includes(pathSelect.value)) {
    const best =
      paths.find((p) => /\.html?$/i.test(p)) ??
      paths.find((p) => /\.(png|jpe?g|gif|webp|svg)$/i.test(p)) ??
      paths[0];
    clear(pathSelect);
    for (const p of paths) append(pathSelect, el('option', { value: p, selected: p === best }, p));
  }
  if (paths.length === 0) {
    append(
      grid,
      el('p', { class: 'muted' }, `No model left artifacts for this task (${data.condition} runs).`),
    );
    return;
  }
  for (const m of data.models) append(grid, column(m, pathSelect.value, data.condition));
}

/** @param {Built} m @param {string} path @param {string} condition */
function column(m, path, condition) {
  const body = el('div');
  const select = /** @type {HTMLSelectElement} */ (el('select', { 'aria-label': `trial of ${m.label}` }));
  const withFile = m.trials.filter((t) => t.artifacts.some((a) => a.path === path && !a.missing));
  for (const t of withFile)
    append(select, el('option', { value: t.index }, `trial ${t.index + 1} ${t.passed ? '✓' : '✗'}`));
  const show = () => {
    clear(body);
    const trial = withFile.find((t) => String(t.index) === select.value);
    const artifact = trial?.artifacts.find((a) => a.path === path);
    append(body, artifact === undefined ? el('p', { class: 'muted' }, `no ${path}`) : preview(artifact));
  };
  select.addEventListener('change', show);
  show();
  const verdict = m.pass_all_k
    ? el('span', { class: 'pass' }, '✓ pass^k')
    : el('span', { class: 'fail' }, `✗ ${m.score.toFixed(2)}`);
  return el(
    'div',
    { class: 'panel', 'data-model': m.model },
    el('strong', { title: m.model }, m.label),
    ' ',
    conditionBadge(condition),
    ' ',
    verdict,
    ' ',
    withFile.length > 0 ? select : null,
    body,
  );
}
