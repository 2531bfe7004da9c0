/** Reports read results of schema 2.0 (before absence flags) and 2.1 alike. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResults } from '../../src/report/load.js';
import { buildMatrix } from '../../src/report/matrix.js';
import { summarizeResult } from '../../src/report/summary.js';
import { ResultFileSchema } from '../../src/results/schema.js';
import { SCHEMA_VERSION } from '../../src/results/version.js';
import { canonicalJson, sha256 } from '../../src/util/hash.js';
import { PASS, result } from '../helpers/result-builder.js';

/** The result as an older agent-bench wrote it: its own version, no field it did not know, its own hash. */
function asVersion(version: string, r: ReturnType<typeof result>): object {
  const { result_hash: _, ...rest } = r;
  const older = { ...rest, schema_version: version };
  return { ...older, result_hash: sha256(canonicalJson(older)) };
}

describe('results schema versions', () => {
  it('is 2.10, and a 2.0 file (no absence fields) still reads and reports', async () => {
    expect(SCHEMA_VERSION).toBe('2.10');
    const dir = await mkdtemp(join(tmpdir(), 'ab-schema-'));
    try {
      const old = result({ task: 'a', model: 'old', trials: [PASS] });
      const now = result({ task: 'a', model: 'new', trials: [PASS] });
      const first = now.trials[0];
      if (first === undefined) throw new Error('no trial');
      const marked = {
        ...now,
        trials: [{ ...first, flags: { ...first.flags, fixed: { ...first.flags.fixed, absence: true } } }],
        skills: { ...now.skills, fixed: { ...now.skills.fixed, absence: true } },
      };
      await writeFile(join(dir, 'a__old__1.json'), JSON.stringify(asVersion('2.0', old)));
      await writeFile(join(dir, 'a__new__1.json'), JSON.stringify(asVersion('2.1', marked as typeof now)));
      const problems: string[] = [];
      const loaded = await loadResults(dir, (line) => problems.push(line));
      expect(problems).toEqual([]);
      expect(loaded.map((l) => [l.result.model, l.result.schema_version])).toEqual([
        ['new', '2.1'],
        ['old', '2.0'],
      ]);
      expect(loaded[0]?.result.skills.fixed?.absence).toBe(true);
      expect(loaded[1]?.result.skills.fixed?.absence).toBeUndefined();
      const m = buildMatrix(loaded.map((l) => summarizeResult(l.file, l.result)));
      expect(m.cells.map((c) => c.score_basis)).toEqual(['1 of k=1 trials', '1 of k=1 trials']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("2.8 keeps a variant trial's instance and the seed that drew it", () => {
    const r = result({ task: 'a', model: 'm', trials: [PASS] });
    const first = r.trials[0];
    if (first === undefined) throw new Error('no trial');
    const variant = {
      ...r,
      settings: { ...r.settings, variant_seed: 1 },
      trials: [{ ...first, variant: '909d5134230000c2' }],
    };
    const parsed = ResultFileSchema.parse(variant);
    expect(parsed.settings.variant_seed).toBe(1);
    expect(parsed.trials[0]?.variant).toBe('909d5134230000c2');
  });

  it("2.9 keeps what a command's background jobs wrote, followed to their end", () => {
    const r = result({ task: 'a', model: 'm', trials: [PASS] });
    const first = r.trials[0];
    const call = first?.turn_logs[0]?.tool_calls[0];
    if (first === undefined || call === undefined) throw new Error('no call');
    const withJobs = { ...call, alive_after: [100], survivor_writes: ['/workspace/out.txt'] };
    const trial = { ...first, turn_logs: [{ ...first.turn_logs[0], tool_calls: [withJobs] }] };
    const parsed = ResultFileSchema.parse({ ...r, trials: [trial] });
    expect(parsed.trials[0]?.turn_logs[0]?.tool_calls[0]?.survivor_writes).toEqual(['/workspace/out.txt']);
  });
});
