// Two runs of the same cell (task × model) side by side: verdict, score, each flag's reach rate,
// turns, time and tokens, and the settings that make them comparable or not. From the index summaries.
import { append, clear, conditionBadge, duration, el, modelName, num } from './dom.js';
import { meanTrialSec } from './matrix-view.js';

/** @typedef {import('./app.js').Summary} Summary */

/**
 * Two runs of one condition (the caller offers only those): like with like.
 * @param {HTMLElement} box @param {Summary} a @param {Summary} b @param {Map<string, string>} labels
 */
export function renderRunCompare(box, a, b, labels) {
  clear(box);
  const flags = [...new Set([...Object.keys(a.skills), ...Object.keys(b.skills)])].sort();
  /** @type {[string, (r: Summary) => string][]} */
  const rows = [
    ['started', (r) => r.started_at],
    ['condition', (r) => r.condition_key],
    // The summary does not tell a failed trial from an unmeasured one: say the counts, not "not all passed".
    [
      'verdict',
      (r) =>
        r.pass_all_k
          ? `✓ pass^${r.k}`
          : `${r.status === 'complete' ? '' : `${r.status}: `}${r.passed_trials} of ${r.trials_run} trials passed (k=${r.k})`,
    ],
    ['score', (r) => `${num(r.score)} (${r.score_basis})`],
    ['pass^k estimate', (r) => num(r.pass_hat_k)],
    ['trials passed', (r) => `${r.passed_trials} of ${r.trials_run}`],
    ...flags.map(
      (f) =>
        /** @type {[string, (r: Summary) => string]} */ ([
          `flag ${f}`,
          (r) => (r.skills[f] === undefined ? '—' : `${Math.round((r.skills[f]?.reach_rate ?? 0) * 100)}%`),
        ]),
    ),
    ['turns per trial', (r) => String(r.avg_turns)],
    ['time per trial', (r) => duration(meanTrialSec(r))],
    ['time in all', (r) => duration(r.elapsed_sec)],
    ['tokens', (r) => `${r.usage.prompt_tokens} prompt + ${r.usage.completion_tokens} completion`],
    ['tamper · invalid calls', (r) => `${r.tamper_detected_count} · ${r.invalid_tool_call_count}`],
    ['setting', (r) => r.comparison + (r.comparable ? '' : ` · † ${r.non_comparable_reasons.join('; ')}`)],
    ['status', (r) => r.status],
  ];
  const table = el(
    'table',
    { class: 'plain run-compare' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', {}, ''),
        el('th', { scope: 'col' }, 'this run'),
        el('th', { scope: 'col' }, 'other run'),
      ),
    ),
  );
  const body = el('tbody');
  for (const [label, value] of rows) {
    const va = value(a);
    const vb = value(b);
    append(
      body,
      el(
        'tr',
        { class: va === vb ? '' : 'differs' },
        el('th', { scope: 'row' }, label),
        el('td', {}, va),
        el('td', {}, vb),
      ),
    );
  }
  append(table, body);
  const close = el('button', { type: 'button', class: 'small-button' }, 'Close');
  close.addEventListener('click', () => clear(box));
  append(
    box,
    el(
      'h3',
      {},
      `Two runs of ${a.task_id} × `,
      modelName(labels, a.model),
      ' ',
      conditionBadge(a.condition_key),
      ' ',
      close,
    ),
    el(
      'p',
      { class: 'small muted' },
      'Rows that differ are marked. Compare scores only at the same setting.',
    ),
    el('div', { class: 'scroll' }, table),
  );
}
