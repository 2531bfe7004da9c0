// The radar view: the server draws the SVG (the same code as `report radar`); the page shows it as an image
// and the values as a table, so no markup from the server is ever inserted into the page.
import { getJson, q } from './api.js';
import { append, byId, clear, el, num } from './dom.js';

/** @typedef {import('./app.js').State} State */

/** @type {string[]} */
let chosen = [];
/** The newest draw: one a newer draw overtook while it waited adds no table (else both would). */
let generation = 0;

/** @param {State} state */
export function showRadar(state) {
  chosen = chosen.filter((m) => state.models.includes(m));
  if (chosen.length === 0) chosen = state.models.slice(0, 4);
  const picker = clear(byId('radar-models'));
  for (const model of state.models) {
    const box = el('input', { type: 'checkbox', value: model, checked: chosen.includes(model) });
    box.addEventListener('change', () => {
      const input = /** @type {HTMLInputElement} */ (box);
      if (input.checked && chosen.length >= 4) {
        input.checked = false;
        return;
      }
      chosen = input.checked ? [...chosen, model] : chosen.filter((m) => m !== model);
      void draw();
    });
    append(picker, el('label', { title: model }, box, ` ${state.labels.get(model) ?? model}`));
  }
  void draw();
}

async function draw() {
  const mine = ++generation;
  const chart = clear(byId('radar-chart'));
  clear(byId('radar-values'));
  if (chosen.length === 0) return;
  const models = q(chosen.join(','));
  append(
    chart,
    el('img', { src: `/api/radar.svg?models=${models}`, alt: `radar of ${chosen.join(', ')}`, width: 760 }),
  );
  const data = await getJson(`/api/radar?models=${models}`);
  if (mine !== generation) return;
  const table = clear(byId('radar-values'));
  const head = el(
    'tr',
    {},
    el('th', {}, 'axis'),
    ...data.series.map((/** @type {{model: string, label: string}} */ s) =>
      el('th', { title: s.model }, s.label),
    ),
    el('th', {}, 'formula'),
  );
  const rows = data.axes.map(
    (/** @type {{label: string, formula: string}} */ axis, /** @type {number} */ i) =>
      el(
        'tr',
        {},
        el('td', {}, `${i + 1}. ${axis.label}`),
        ...data.series.map((/** @type {{values: (number | null)[]}} */ s) =>
          // No evidence for the axis (e.g. no tool call was made): n/a, never a number.
          el('td', {}, s.values[i] === null || s.values[i] === undefined ? 'n/a' : num(s.values[i])),
        ),
        el('td', { class: 'muted small' }, axis.formula),
      ),
  );
  append(table, el('thead', {}, head), el('tbody', {}, ...rows));
}
