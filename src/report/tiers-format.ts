/** The tiers table as Markdown (printed with the definition) or JSON. */
import { formatDuration } from './format.js';
import { type ModelTier, TIER_DEFINITIONS, TIER_NAMES } from './tiers.js';

export function tiersMarkdown(rows: readonly ModelTier[], suite: readonly string[]): string {
  const lines = [
    '## Model tiers (derived from flags)',
    '',
    ...TIER_DEFINITIONS.split('\n').map((d) => `- ${d}`),
    '',
    `Suite (${suite.length} task${suite.length === 1 ? '' : 's'}): ${suite.join(', ') || '(none)'}`,
    '',
    '| tier | model | clear time | tasks passed | outcome only | valid tool calls | notes |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const tier = r.tier === null ? '— incomplete' : `${r.tier} ${TIER_NAMES[r.tier]}`;
    const time = r.totalClearTimeSec === null ? '—' : formatDuration(r.totalClearTimeSec);
    const rate = r.validToolCallRate === null ? '?' : `${Math.round(r.validToolCallRate * 100)}%`;
    const cells = [
      tier,
      `${r.model}${r.comparable ? '' : ' *'}`,
      time,
      `${r.tasksPassed}/${r.suiteSize}`,
      String(r.outcomeOnlyTasks.length),
      rate,
      r.reasons.join('; '),
    ];
    lines.push(`| ${cells.map(cell).join(' | ')} |`);
  }
  if (rows.length === 0) lines.push('| — | (no results) | | | | | |');
  if (rows.some((r) => !r.comparable))
    lines.push('', '\\* run with non-default settings: not comparable with the others.');
  return `${lines.join('\n')}\n`;
}

export function tiersJson(rows: readonly ModelTier[], suite: readonly string[]): string {
  return `${JSON.stringify({ definitions: TIER_DEFINITIONS.split('\n'), suite, models: rows }, null, 2)}\n`;
}

/** Markdown table cells cannot hold a pipe or a line break. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
