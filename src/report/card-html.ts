/** The model card as one self-contained HTML page (prints on one or two sheets). */
import { shortModelName } from '../results/short-model-name.js';
import { type ModelCard, runNote } from './card.js';
import { DIMENSIONS_FOOTNOTE, formatEstimate } from './dimensions.js';
import type { TrialExcerpt } from './excerpt.js';
import { escapeHtml as h } from './format.js';
import { reportPage } from './html-page.js';
import { renderLadderSvg } from './ladder-chart-svg.js';
import { MATRIX_FOOTNOTE } from './matrix-render.js';
import { PARETO_NOTE, renderParetoSvg } from './pareto-render.js';
import { renderRadarSvg } from './radar-svg.js';

export function renderCardHtml(card: ModelCard): string {
  const t = card.totals;
  const env = card.environment;
  const body = [
    `<h1 title="${h(card.model)}">${h(shortModelName(card.model))}</h1>`,
    shortModelName(card.model) === card.model ? '' : `<p class="muted">model ${h(card.model)}</p>`,
    `<p>${card.tier === null ? '' : `<span class="chip" title="${h(card.tier.reasons.join('; '))}">${h(card.tier.label)}</span>`}` +
      `<span class="chip">${t.passed_tasks}/${t.tasks} tasks pass^k${h(runNote(card))}</span>` +
      `<span class="chip">${t.passed_trials}/${t.trials} trials passed</span>` +
      `<span class="chip">tamper ${t.tamper}</span><span class="chip">hallucinated calls ${t.hallucinated}</span></p>`,
    env === null
      ? ''
      : `<p class="muted">server ${h(env.server ?? 'unknown')} · harness ${h(env.harness_version)}` +
        `${env.base_url === null ? '' : ` · ${h(env.base_url)}`} · deterministic scoring, no LLM judge</p>`,
    card.tier === null || card.tier.reasons.length === 0
      ? ''
      : `<p class="muted">Tier notes: ${h(card.tier.reasons.join('; '))}</p>`,
    ...card.notes.map((n) => `<p class="muted">Note: ${h(n)}</p>`),
    '<h2>Strengths</h2>',
    list(card.strengths, 'no axis at 0.80 or above'),
    '<h2>Weak spots</h2>',
    list(card.weaknesses, 'no axis below 0.50'),
    card.unmeasured.length === 0 ? '' : `<h2>No evidence</h2>${list(card.unmeasured, '')}`,
    '<h2>Tasks</h2>',
    '<table><thead><tr><th>task</th><th>result</th></tr></thead><tbody>',
    ...card.cells.map(
      (c) => `<tr><td>${h(c.task)}</td><td class="${c.pass_all_k ? 'good' : 'bad'}">${h(c.text)}</td></tr>`,
    ),
    '</tbody></table>',
    `<p class="muted">${h(MATRIX_FOOTNOTE)}</p>`,
    dimensionsTable(card),
    '<h2>Abilities</h2>',
    renderRadarSvg(card.radar),
    ...paretoSection(card),
    ...ladderSection(card),
    '<h2>Failures</h2>',
    card.failures.length === 0 ? '<p class="good">None: every task passed all k trials.</p>' : '',
    ...card.failures.map((f) =>
      [
        `<h3>${h(f.task)} <span class="bad">${h(f.cell.text)}</span></h3>`,
        `<p>Flags missed (reach rates over ${h(f.basis)}): ${f.missed.map((m) => `<code>${h(m.flag)}</code> (${m.kind}, reached ${pct(m.reach_rate)})`).join(', ') || 'none (tamper or error)'}</p>`,
        f.example === null ? '' : excerpt(f.example),
        `<p class="muted">from ${h(f.file)}</p>`,
      ].join('\n'),
    ),
  ];
  return reportPage(`agent-bench card: ${shortModelName(card.model)}`, body.join('\n'));
}

/** Where this model sits among every model that ran the suite: completion against tokens per trial. */
function paretoSection(card: ModelCard): string[] {
  if (card.pareto.points.length === 0) return [];
  const mine = card.pareto.dominated.filter((d) => d.model === card.model).map((d) => d.sentence);
  const onFront = card.pareto.front.filter((f) => f.model === card.model).map((f) => f.condition);
  return [
    '<h2>Cost against completion</h2>',
    renderParetoSvg(card.pareto, card.model),
    ...(onFront.length > 0 ? [`<p class="good">On the Pareto front (${h(onFront.join(', '))}).</p>`] : []),
    ...mine.map((m) => `<p class="bad">${h(m)}</p>`),
    `<p class="muted">${h(PARETO_NOTE)}</p>`,
  ];
}

/** The newest ladder this model was a rung of: its chart and verdict. */
function ladderSection(card: ModelCard): string[] {
  if (card.ladder === undefined) return [];
  return [
    '<h2>Ladder</h2>',
    renderLadderSvg(card.ladder),
    ...(card.ladder.verdict === null ? [] : [`<p>${h(card.ladder.verdict)}</p>`]),
    `<p class="muted">${h(`ladder ${card.ladder.runId}`)}</p>`,
  ];
}

function excerpt(x: TrialExcerpt): string {
  const lines: string[] = [];
  if (x.omitted_turns > 0) lines.push(`… ${x.omitted_turns} earlier turn(s) not shown`);
  for (const turn of x.turns) {
    if (turn.text !== '') lines.push(`[turn ${turn.turn}] model: ${turn.text}`);
    for (const c of turn.calls) {
      const status =
        c.invalid !== null
          ? `invalid: ${c.invalid}`
          : c.timed_out
            ? 'timed out'
            : `exit ${c.exit_code ?? '?'}`;
      lines.push(`[turn ${turn.turn}] ${c.name}: ${c.arg}  → ${status}`);
      if (c.output_tail !== '') lines.push(c.output_tail.replace(/^/gm, '    '));
    }
    if (turn.user !== null) lines.push(`[turn ${turn.turn}] user: ${turn.user}`);
  }
  if (x.final_answer !== null) lines.push(`final answer: ${x.final_answer}`);
  const why = [x.failure_reason, ...x.tamper_violations.map((v) => `tamper: ${v}`)].filter((s) => s !== null);
  return [
    `<p>Trial ${x.trial}${why.length === 0 ? '' : `: ${h(why.join('; '))}`}` +
      `${x.missed_flags.length === 0 ? '' : ` · missed ${x.missed_flags.map(h).join(', ')}`}</p>`,
    `<pre>${h(lines.join('\n'))}</pre>`,
  ].join('\n');
}

function list(items: readonly string[], empty: string): string {
  return items.length === 0
    ? `<p class="muted">${h(empty)}</p>`
    : `<ul>${items.map((i) => `<li>${h(i)}</li>`).join('')}</ul>`;
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

function dimensionsTable(card: ModelCard): string {
  if (card.dimensions.length === 0) return '';
  const head = ['dimension', 'scenarios', 'k', 'pass rate [95% CI]', 'pass^k [95% CI]', 'user'];
  return [
    '<h2>By policy dimension</h2>',
    `<table><thead><tr>${head.map((c) => `<th>${h(c)}</th>`).join('')}</tr></thead><tbody>`,
    ...card.dimensions.map(
      (r) =>
        `<tr><td>${h(r.dimension)}</td><td>${r.scenarios}</td><td>${h(r.k)}</td><td>${h(formatEstimate(r.pass_rate))}</td>` +
        `<td>${h(formatEstimate(r.pass_hat_k))}</td><td>${h(r.users)}</td></tr>`,
    ),
    '</tbody></table>',
    `<p class="muted">${h(DIMENSIONS_FOOTNOTE)}</p>`,
  ].join('\n');
}
