/**
 * The meaning keys of artifact_checks as a manifest writes them: each becomes its own flag (facts one
 * each), the absences are marked, what needs the folder is computed at load, and a malformed key is
 * one line naming where it is. Then the similarity bound on the bundled dashboard: a copy with
 * strings swapped is caught, a page of its own in the same design passes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keptOf, wordRuns } from '../../../src/manifest/meaning/similarity.js';
import { loadSkill } from '../../../src/skills/load.js';
import { skillTask } from '../../../src/skills/skill-task.js';
import { UsageError } from '../../../src/util/errors.js';
import { removeSkillFolders, skillFolder } from '../../skills/skill-folder.js';

afterEach(removeSkillFolders);

const FILES = {
  'SKILL.md': '# x\n',
  'data/sales.csv': 'region,units,price\nnorth,2,10\nsouth,1,5\n',
  'reference.html': '<p>The quick brown fox jumps over the lazy dog.</p>',
};

function problemsOf(manifest: unknown): string[] {
  try {
    loadSkill(skillFolder(FILES, manifest));
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message
      .split('\n')
      .slice(1)
      .map((l) => l.trim());
  }
  throw new Error('the skill loaded');
}

describe('meaning keys in a manifest', () => {
  it('make one flag each, facts one per fact, the absences marked', () => {
    const dir = skillFolder(FILES, {
      expected_artifacts: ['out/index.html'],
      artifact_checks: [
        {
          file: 'out/index.html',
          facts: ['North', ['5 units', 'five units']],
          no_placeholders: true,
          no_external: true,
          not_copy_of: { file: 'reference.html', max_similarity: 0.3 },
          derived_from: {
            input: 'data/sales.csv',
            values: [{ label: 'Total', value: 'sum(units * price)' }],
          },
        },
        {
          file: 'out/s.json',
          id: 'sums',
          derived_from: { input: 'data/sales.csv', values: [{ at: '/n', value: 'count' }] },
        },
      ],
    });
    const flags = skillTask(loadSkill(dir)).flags.filter((f) => f.id.startsWith('check:'));
    expect(flags.map((f) => [f.id, f.absence === true])).toEqual([
      ['check:fact:North', false],
      ['check:fact:5 units', false],
      ['check:out/index.html:no_placeholders', true],
      ['check:out/index.html:no_external', true],
      ['check:out/index.html:not_copy_of', true],
      ['check:out/index.html:derived_from', false],
      ['check:sums', false],
    ]);
    expect(flags.find((f) => f.id === 'check:out/index.html:derived_from')?.description).toBe(
      'out/index.html shows the numbers recomputed from data/sales.csv (Total = sum(units * price)), to the places it shows (checked on the file after the last turn).',
    );
  });

  it('refuses malformed keys, one line each with its path', () => {
    const problems = problemsOf({
      artifact_checks: [
        { file: 'a.html', no_external: 'yes', no_placeholders: 1, facts: [''] },
        { file: 'a.md', no_external: true },
        { file: 'a.html', not_copy_of: { file: 'missing.html', max_similarity: 0.5 } },
        { file: 'a.html', not_copy_of: { file: 'reference.html', max_similarity: 1 } },
        { file: 'a.html', not_copy_of: { file: 'reference.html' } },
        { file: 'a.txt', derived_from: { input: 'data/none.csv', values: [{ label: 'T', value: 'count' }] } },
        {
          file: 'a.txt',
          derived_from: { input: 'data/sales.csv', values: [{ label: 'T', value: 'total(units)' }] },
        },
        {
          file: 'a.txt',
          derived_from: { input: 'data/sales.csv', values: [{ label: 'T', value: 'sum(qty)' }] },
        },
        { file: 'a.txt', derived_from: { input: 'data/sales.csv', values: [{ value: 'count' }] } },
        {
          file: 'a.txt',
          derived_from: { input: 'data/sales.csv', values: [{ label: 'T', value: 'count', by: 'region' }] },
        },
        { file: 'a.txt', derived_from: { input: 'data/sales.csv', values: [] } },
        {
          file: 'a.txt',
          derived_from: { input: 'data/sales.csv', values: [{ at: 'total', value: 'count' }] },
        },
        {
          file: 'a.txt',
          derived_from: { input: 'data/sales.csv', values: [{ label: 'T', value: 'count', typo: 1 }] },
        },
      ],
    });
    const expected = [
      'artifact_checks[0].no_external: expected boolean',
      'artifact_checks[0].no_placeholders: expected boolean',
      'artifact_checks[0].facts[0]: ',
      'artifact_checks[1].no_external: no_external reads pages, SVG, CSS and JavaScript (.html, .htm, .xhtml, .svg, .css, .js, .mjs, .cjs), not a.md',
      'artifact_checks[2].not_copy_of.file: file not found in skill folder',
      'artifact_checks[3].not_copy_of.max_similarity: must be below 1',
      'artifact_checks[4].not_copy_of.max_similarity: expected number',
      'artifact_checks[5].derived_from.input: file not found in skill folder',
      'artifact_checks[6].derived_from.values[0].value: "total(units)": write count, or sum, mean, min or max',
      'artifact_checks[7].derived_from: data/sales.csv: no column "qty" (its columns: region, units, price)',
      'artifact_checks[8].derived_from.values[0]: give exactly one of label (in the text) and at (a JSON pointer)',
      'artifact_checks[9].derived_from.values[0]: with by, the label names the group: put {region} in it',
      'artifact_checks[10].derived_from.values: Too small',
      'artifact_checks[11].derived_from.values[0].at: must be a JSON pointer',
      'artifact_checks[12].derived_from.values[0].typo: unknown key',
    ];
    for (const e of expected)
      expect(
        problems.some((p) => p.startsWith(e)),
        `${e}\nin:\n${problems.join('\n')}`,
      ).toBe(true);
    expect(problems).toHaveLength(expected.length);
    for (const p of problems) expect(p).not.toContain('\n');
  });
});

describe('the similarity bound on the bundled dashboard', () => {
  const dir = join(import.meta.dirname, '../../../skills/imitate-dashboard');
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  const reference = wordRuns('reference.html', read('reference.html'));
  const share = (html: string) => keptOf(reference, wordRuns('index.html', html)).share;
  const bound = 0.25; // the manifest's max_similarity

  it('catches the reference with its strings swapped, however many rows it adds', () => {
    const swapped = read('reference.html')
      .replace(/ORBITAL CUP 2026/g, 'NOVA LEAGUE 2027')
      .replace('Helios', 'Northgate Comets')
      .replace('Kepler United', 'Harbor City')
      .replace('Vega Athletic', 'Red Mesa United')
      .replace('Andromeda FC', 'Pinecrest Wolves')
      .replace('Lyra Rovers', 'Silverlake FC')
      .replace('Sirius Town', 'Dune Valley')
      .replace('</tbody>', `${'<tr><td>7</td><td>Quarry Park</td><td>0.9</td></tr>'.repeat(6)}</tbody>`);
    expect(share(swapped)).toBeGreaterThan(bound);
    expect(share(read('reference.html'))).toBe(1);
  });

  it('passes pages of their own, the one that keeps the stylesheet and class names verbatim too', () => {
    expect(share(read('.bench/solution.html'))).toBeLessThanOrEqual(bound);
    expect(share(read('.bench/solution-same-design.html'))).toBeLessThanOrEqual(bound);
  });
});
