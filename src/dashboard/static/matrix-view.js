// Which cells the matrix shows and in what order: pure functions over the newest visible run per cell,
// driven by the filter and sort controls above the table.

/** @typedef {import('./app.js').Summary} Summary */

/**
 * @typedef {{ failuresOnly: boolean, model: string, task: string, flag: string,
 *   sort: 'name' | 'score-asc' | 'score-desc' | 'time-desc' | 'time-asc' }} MatrixView
 */

/** @type {MatrixView} */
export const DEFAULT_VIEW = { failuresOnly: false, model: '', task: '', flag: '', sort: 'name' };

/**
 * The cells that pass the filters. A flag filter keeps the cells whose task checks that flag; with
 * "failures only" it keeps those where the flag was missed in some trial, otherwise those that failed.
 * @param {Summary[]} newest @param {MatrixView} v
 */
export function visibleCells(newest, v) {
  return newest.filter((r) => {
    if (v.model !== '' && r.model !== v.model) return false;
    if (v.task !== '' && r.task_id !== v.task) return false;
    const flag = v.flag === '' ? undefined : r.skills[v.flag];
    if (v.flag !== '' && flag === undefined) return false;
    if (!v.failuresOnly) return true;
    return flag === undefined ? !r.pass_all_k : flag.reach_rate < 1;
  });
}

/** Mean time per trial, the figure each cell shows. @param {Summary} r */
export const meanTrialSec = (r) => (r.trials_run === 0 ? 0 : r.elapsed_sec / r.trials_run);

/**
 * Rows (tasks) and columns (models) of the cells shown, ordered by name or by their mean score or mean
 * time per trial over those cells; ties stay in name order.
 * @param {Summary[]} cells @param {MatrixView['sort']} sort
 */
export function axes(cells, sort) {
  return {
    tasks: ordered(cells, (r) => r.task_id, sort),
    models: ordered(cells, (r) => r.model, sort),
  };
}

/** @param {Summary[]} cells @param {(r: Summary) => string} keyOf @param {MatrixView['sort']} sort */
function ordered(cells, keyOf, sort) {
  const names = [...new Set(cells.map(keyOf))].sort();
  if (sort === 'name') return names;
  const value = sort.startsWith('score') ? (/** @type {Summary} */ r) => r.score : meanTrialSec;
  const sign = sort.endsWith('asc') ? 1 : -1;
  const mean = new Map(
    names.map((n) => {
      const mine = cells.filter((r) => keyOf(r) === n);
      return [n, mine.reduce((s, r) => s + value(r), 0) / mine.length];
    }),
  );
  return names.sort((a, b) => sign * ((mean.get(a) ?? 0) - (mean.get(b) ?? 0)));
}
