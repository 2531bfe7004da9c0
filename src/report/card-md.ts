/** The model card as Markdown, for a README or an issue comment. */
import { shortModelName } from '../results/short-model-name.js';
import { type ModelCard, runNote } from './card.js';
import { dimensionsMarkdown } from './dimensions.js';

export function renderCardMarkdown(card: ModelCard): string {
  const t = card.totals;
  const short = shortModelName(card.model);
  const out: string[] = [`# ${short}`, '', ...(short === card.model ? [] : [`Model: ${card.model}`, ''])];
  if (card.tier !== null) {
    out.push(
      `**${card.tier.label}**${card.tier.reasons.length === 0 ? '' : `: ${card.tier.reasons.join('; ')}`}`,
      '',
    );
  }
  out.push(
    `${t.passed_tasks}/${t.tasks} tasks pass^k${runNote(card)} · ${t.passed_trials}/${t.trials} trials passed · tamper ${t.tamper} · hallucinated calls ${t.hallucinated}`,
    '',
    ...card.notes.flatMap((n) => [`Note: ${md(n)}`, '']),
    '## Strengths',
    '',
    ...bullets(card.strengths, 'no axis at 0.80 or above'),
    '',
    '## Weak spots',
    '',
    ...bullets(card.weaknesses, 'no axis below 0.50'),
    '',
    ...(card.unmeasured.length === 0 ? [] : ['## No evidence', '', ...bullets(card.unmeasured, ''), '']),
    '## Tasks',
    '',
    '| task | result |',
    '| --- | --- |',
    ...card.cells.map((c) => `| ${md(c.task)} | ${md(c.text)} |`),
    '',
    ...(card.dimensions.length === 0
      ? []
      : ['## By policy dimension', '', ...dimensionsMarkdown(card.dimensions), '']),
    ...(card.ladder === undefined
      ? []
      : [
          '## Ladder',
          '',
          `Ladder ${card.ladder.runId} (chart: ladder-${card.ladder.runId}.svg beside its summary)${card.ladder.verdict === null ? '' : `: ${md(card.ladder.verdict)}`}`,
          '',
        ]),
    '## Failures',
    '',
  );
  if (card.failures.length === 0) out.push('None: every task passed all k trials.');
  for (const f of card.failures) {
    out.push(`### ${f.task}: ${f.cell.text}`, '');
    out.push(
      `Flags missed (reach rates over ${f.basis}): ${f.missed.map((m) => `\`${m.flag}\` (${m.kind}, ${Math.round(m.reach_rate * 100)}%)`).join(', ') || 'none'}`,
      '',
    );
    const x = f.example;
    if (x === null) continue;
    const lines: string[] = [];
    for (const turn of x.turns) {
      if (turn.text !== '') lines.push(`[turn ${turn.turn}] model: ${turn.text}`);
      for (const c of turn.calls)
        lines.push(`[turn ${turn.turn}] ${c.name}: ${c.arg} → exit ${c.exit_code ?? c.invalid ?? '?'}`);
      if (turn.user !== null) lines.push(`[turn ${turn.turn}] user: ${turn.user}`);
    }
    if (x.final_answer !== null) lines.push(`final answer: ${x.final_answer}`);
    const fence = fenceFor(lines.join('\n'));
    out.push(
      `Trial ${x.trial}${x.failure_reason === null ? '' : `: ${x.failure_reason}`}`,
      '',
      `${fence}text`,
      ...lines,
      fence,
      '',
    );
  }
  return `${out.join('\n')}\n`;
}

/** A code fence longer than any backtick run in model-written text, so the text cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(Math.max(3, longest + 1));
}

const bullets = (items: readonly string[], empty: string): string[] =>
  items.length === 0 ? [`_${empty}_`] : items.map((i) => `- ${md(i)}`);

const md = (s: string): string => s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
