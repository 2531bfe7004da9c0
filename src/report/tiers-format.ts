/**
 * The tiers table as Markdown (printed with the definition) or JSON. Rows of different comparison keys
 * (k, early stop) go to separate tables, so no model is ranked against one run at other settings.
 */
import { shortModelNames } from '../results/short-model-name.js';
import { formatDuration, fullNamesNote } from './format.js';
import { type ModelTier, TIER_DEFINITIONS, TIER_NAMES } from './tiers.js';

const TABLE_HEAD = [
  '| tier | model | clear time | tasks passed (of run) | outcome only | valid tool calls | notes |',
  '|---|---|---|---|---|---|---|',
];

export function tiersMarkdown(rows: readonly ModelTier[], suite: readonly string[]): string {
  const lines = [
    '## Model tiers (derived from flags)',
    '',
    ...TIER_DEFINITIONS.split('\n').map((d) => `- ${d}`),
    '',
    `Suite (${suite.length} task${suite.length === 1 ? '' : 's'}): ${suite.join(', ') || '(none)'}`,
    '',
  ];
  const groups = comparisons(rows);
  const names = shortModelNames(rows.map((r) => r.model));
  if (groups.length > 1)
    lines.push(
      `Results were run at ${groups.length} different settings, so there is one table per setting: models are compared only within a table.`,
      '',
    );
  for (const [i, comparison] of groups.entries()) {
    const members = rows.filter((r) => r.comparison === comparison);
    lines.push(
      ...(i === 0 ? [] : ['']),
      groups.length > 1 ? `### ${comparison}` : `Compared at ${comparison}.`,
      '',
      ...TABLE_HEAD,
      ...members.map((r) => row(r, names.get(r.model) ?? r.model)),
    );
  }
  if (rows.length === 0) lines.push(...TABLE_HEAD, '| — | (no results) | | | | | |');
  if (rows.some((r) => !r.comparable))
    lines.push('', '\\* run with non-default settings: not comparable with the others.');
  lines.push(...fullNamesNote(names));
  return `${lines.join('\n')}\n`;
}

/** The comparison keys of the rows, in row order (computeTiers orders rows by comparison first). */
function comparisons(rows: readonly ModelTier[]): string[] {
  return [...new Set(rows.map((r) => r.comparison))];
}

function row(r: ModelTier, name: string): string {
  const tier = r.tier === null ? '— none run' : `${r.tier} ${TIER_NAMES[r.tier]}`;
  const time = r.totalClearTimeSec === null ? '—' : formatDuration(r.totalClearTimeSec);
  const rate = r.validToolCallRate === null ? '?' : `${Math.round(r.validToolCallRate * 100)}%`;
  const cells = [
    tier,
    `${name}${r.comparable ? '' : ' *'}`,
    time,
    `${r.tasksPassed}/${r.tasksRun}`,
    String(r.outcomeOnlyTasks.length),
    rate,
    r.reasons.join('; '),
  ];
  return `| ${cells.map(cell).join(' | ')} |`;
}

export function tiersJson(rows: readonly ModelTier[], suite: readonly string[]): string {
  const body = {
    definitions: TIER_DEFINITIONS.split('\n'),
    suite,
    comparisons: comparisons(rows),
    models: rows,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** Markdown table cells cannot hold a pipe or a line break. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
