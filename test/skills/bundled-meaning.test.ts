/**
 * The bundled skills' meaning checks on their own correct artifacts: the reference pages and the
 * alternates' pages pass every one, and so do the summaries their scripts write for the folder's own
 * data. (Their cheats are proven caught by `validate`, in the sandbox.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentProblem } from '../../src/manifest/artifact-checks.js';
import { isAbsence } from '../../src/manifest/meaning/meaning-checks.js';
import type { SnapshotEntry } from '../../src/sandbox/types.js';
import { loadSkill } from '../../src/skills/load.js';

const SKILLS = join(import.meta.dirname, '../../skills');
const MEANING = new Set(['fact', 'no_placeholders', 'no_external', 'not_copy_of', 'derived_from']);

/** The meaning checks of `skill` on `file` that fail when it holds `text`, with why. */
async function failing(skill: string, file: string, text: string): Promise<[string, string | null][]> {
  const { spec } = loadSkill(join(SKILLS, skill));
  const entry: SnapshotEntry = { kind: 'file', sha256: 'x', size: text.length, mode: 0o644 };
  const ctx = {
    finalSnapshot: new Map([[file, entry]]),
    groundTruth: { readFile: async () => text, run: async () => Promise.reject(new Error('no run')) },
  };
  const checks = spec.checks.filter((c) => c.file === file && MEANING.has(c.check.kind));
  expect(checks.length).toBeGreaterThan(0);
  const out: [string, string | null][] = [];
  for (const c of checks) out.push([c.id, await contentProblem(ctx, file, c.check)]);
  return out.filter(([, p]) => p !== null);
}

const read = (path: string) => readFileSync(join(SKILLS, path), 'utf8');

describe('bundled skills, their correct artifacts', () => {
  it.each([
    ['landing-page', '.bench/index.html'],
    ['landing-page', '.bench/index-alt.html'],
    ['imitate-dashboard', '.bench/solution.html'],
    ['imitate-dashboard', '.bench/solution-same-design.html'],
  ])('%s: %s passes every meaning check', async (skill, page) => {
    expect(await failing(skill, 'output/index.html', read(`${skill}/${page}`))).toEqual([]);
  });

  it('data-pipeline: the summary and the report the scripts write for its data pass', async () => {
    const summary =
      'ROWS=12\nREGION east=6917\nREGION north=8610\nREGION south=6900\nREGION west=8455\nTOTAL=30882\n';
    expect(await failing('data-pipeline', 'output/summary.txt', summary)).toEqual([]);
    const report = `# Sales Report\n\n\`\`\`\n${summary}\`\`\`\n`;
    expect(await failing('data-pipeline', 'output/report.md', report)).toEqual([]);
    expect(await failing('data-pipeline', 'output/summary.txt', summary.replace('8455', '8456'))).toEqual([
      [
        'check:output/summary.txt:derived_from',
        'output/summary.txt: "REGION west" shows 8456 (data/sales.csv gives 8455: sum(units * price) for region = west)',
      ],
    ]);
  });

  it("report: the summary of the folder's own export passes, one count off fails", async () => {
    const rows = read('report/data/tickets.csv')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const count = (col: number) => {
      const out: Record<string, number> = {};
      for (const r of rows) out[r[col] ?? ''] = (out[r[col] ?? ''] ?? 0) + 1;
      return out;
    };
    const summary = {
      total: rows.length,
      by_status: count(2),
      by_priority: count(3),
      by_team: count(4),
      open_urgent: [],
    };
    expect(await failing('report', 'output/summary.json', JSON.stringify(summary, null, 2))).toEqual([]);
    const off = { ...summary, by_team: { ...summary.by_team, billing: (summary.by_team.billing ?? 0) + 1 } };
    expect(await failing('report', 'output/summary.json', JSON.stringify(off))).toEqual([
      [
        'check:output/summary.json:derived_from',
        'output/summary.json: /by_team/billing is 11 (data/tickets.csv gives 10: count for team = billing)',
      ],
    ]);
  });

  it('marks placeholders, externals and copies as absences, facts and numbers not', () => {
    expect(['no_placeholders', 'no_external', 'not_copy_of'].every((kind) => isAbsence({ kind }))).toBe(true);
    expect(['fact', 'derived_from'].some((kind) => isAbsence({ kind }))).toBe(false);
  });
});
