// Per-task flag reach-rate charts: one horizontal bar per (flag, model). The percentage is printed at each
// bar's end, so the numbers never depend on telling colours apart.
import { append, byId, clear, el, svg } from './dom.js';

/** @typedef {import('./app.js').State} State */

const LABEL_W = 220;
const BAR_W = 380;
const BAR_H = 12;

/** @param {State} state */
export function showFlags(state) {
  const box = clear(byId('view-flags'));
  if (state.newest.length === 0) {
    append(box, el('p', { class: 'muted' }, 'No results yet.'));
    return;
  }
  append(box, legend(state.models, state.labels));
  for (const task of state.tasks) {
    const rows = state.newest.filter((r) => r.task_id === task);
    const flags = [...new Set(rows.flatMap((r) => Object.keys(r.skills)))];
    // A rate is a share of the trials run, which an early stop makes fewer than k.
    const bases = state.models.flatMap((m) => {
      const r = rows.find((row) => row.model === m);
      return r === undefined ? [] : [`${state.labels.get(m) ?? m}: ${r.score_basis}`];
    });
    append(
      box,
      el('h3', {}, task),
      el('p', { class: 'muted small' }, `reach rates over ${bases.join(' · ')}`),
      chart(state.models, rows, flags),
    );
  }
  append(
    box,
    el(
      'p',
      { class: 'muted small' },
      '* process flag (how the work was done); the others are outcome flags. ' +
        'An absence flag (did not loop, did not stub…) counts only in trials that reached an outcome.',
    ),
  );
}

/** @param {string[]} models @param {Map<string, string>} labels */
function legend(models, labels) {
  return el(
    'div',
    { class: 'chips' },
    ...models.map((m, i) =>
      el('span', { title: m }, el('span', { class: `swatch c${i % 8}` }), labels.get(m) ?? m),
    ),
  );
}

/**
 * @param {string[]} models
 * @param {import('./app.js').Summary[]} rows
 * @param {string[]} flags
 */
function chart(models, rows, flags) {
  const present = models.filter((m) => rows.some((r) => r.model === m));
  const groupH = present.length * (BAR_H + 2) + 10;
  const height = flags.length * groupH + 24;
  const root = svg('svg', {
    class: 'chart',
    width: LABEL_W + BAR_W + 60,
    height,
    viewBox: `0 0 ${LABEL_W + BAR_W + 60} ${height}`,
    role: 'img',
    'aria-label': `flag reach rates for ${rows[0]?.task_id ?? ''}`,
  });
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const x = LABEL_W + tick * BAR_W;
    append(root, svg('line', { class: 'grid', x1: x, x2: x, y1: 0, y2: height - 18 }));
    append(root, svg('text', { x, y: height - 4, 'text-anchor': 'middle' }, `${tick * 100}%`));
  }
  flags.forEach((flag, fi) => {
    const y0 = fi * groupH;
    const kind = rows.find((r) => r.skills[flag] !== undefined)?.skills[flag]?.kind;
    append(
      root,
      svg(
        'text',
        { x: LABEL_W - 8, y: y0 + groupH / 2 + 3, 'text-anchor': 'end' },
        `${flag}${kind === 'process' ? ' *' : ''}`,
      ),
    );
    present.forEach((model, mi) => {
      const r = rows.find((row) => row.model === model);
      const s = r?.skills[flag];
      const y = y0 + 4 + mi * (BAR_H + 2);
      const colour = `c${models.indexOf(model) % 8}`;
      const w = s === undefined ? 0 : Math.max(1.5, s.reach_rate * BAR_W);
      const tip =
        s === undefined
          ? `${model}: no data`
          : `${model} · ${flag}: ${Math.round(s.reach_rate * 100)}% of ${r?.score_basis ?? 'the trials run'}${s.avg_turns === null ? '' : ` · reached on turn ${s.avg_turns} on average`}`;
      append(root, svg('rect', { class: 'track', x: LABEL_W, y, width: BAR_W, height: BAR_H }));
      append(
        root,
        svg('rect', { class: colour, x: LABEL_W, y, width: w, height: BAR_H, rx: 2 }, svg('title', {}, tip)),
      );
      append(
        root,
        svg(
          'text',
          { x: LABEL_W + BAR_W + 6, y: y + BAR_H - 2 },
          s === undefined ? '—' : `${Math.round(s.reach_rate * 100)}%`,
        ),
      );
    });
  });
  return root;
}
