/** agent-bench report axes: formats, --compare, --price-table, and one-line errors for bad usage. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportAxesCommand } from '../../src/cli/commands/report.js';
import { UsageError } from '../../src/util/errors.js';
import { F, opsResult, P } from './ops-results.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'axes-'));
  const files = [
    opsResult({ task: 't1', model: 'A', k: 2, trials: [P, P] }),
    opsResult({ task: 't2', model: 'A', k: 2, trials: [P, F] }),
    opsResult({ task: 't1', model: 'B', k: 2, trials: [F, F] }),
    opsResult({ task: 't2', model: 'B', k: 2, trials: [F, F] }),
  ];
  for (const [i, r] of files.entries()) await writeFile(join(dir, `r${i}.json`), JSON.stringify(r));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function axes(extra: Record<string, unknown>): Promise<string> {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => {
    text += String(d);
  });
  await reportAxesCommand({
    resultsDir: dir,
    format: 'md',
    stdout: out,
    stderr: new PassThrough(),
    ...extra,
  });
  return text;
}

describe('agent-bench report axes', () => {
  it('prints one row per model and condition, in JSON with every figure as value, n and interval', async () => {
    const json = JSON.parse(await axes({ format: 'json' }));
    expect(json.rows.map((r: { model: string }) => r.model)).toEqual(['A', 'B']);
    expect(json.rows[0].completion).toMatchObject({ value: 0.75, n: 2, method: 'bootstrap' });
    expect(json.note).toMatch(/Wilson/);
    expect(await axes({ models: 'B' })).not.toContain('| A |');
  });

  it('adds USD per trial from a price table, and refuses a broken one in one line', async () => {
    const table = join(dir, 'prices.json');
    await writeFile(table, JSON.stringify({ prices: [{ match: 'A', usd_per_hour: 3.6 }] }));
    const md = await axes({ priceTable: table });
    // 10 s per trial at 3.6 $/h.
    expect(md).toContain('0.0100');
    await writeFile(table, JSON.stringify({ prices: [{ match: 'A', usd_per_hour: -1 }] }));
    await expect(axes({ priceTable: table })).rejects.toThrow(UsageError);
    await expect(axes({ priceTable: join(dir, 'none.json') })).rejects.toThrow(/cannot be read/);
  });

  it('compares two models paired per task', async () => {
    const md = await axes({ compare: ['A', 'B'] });
    expect(md).toContain('# B vs A, paired per task');
    expect(md).toContain('| clean | completion | 0.75');
    await expect(axes({ compare: ['A'] })).rejects.toThrow(/two model names/);
    await expect(axes({ compare: ['A', 'Z'] })).rejects.toThrow(/no results for model Z/);
    await expect(axes({ format: 'xml' })).rejects.toThrow(UsageError);
  });

  it('--pareto --format json names the front and the dominated, per condition, baselines apart', async () => {
    // C completes as A does at fewer tokens; A is then dominated by C, and B (worse, dearer) by C and A.
    const more = [
      opsResult({ task: 't1', model: 'C', k: 2, trials: [P, P].map((t) => ({ ...t, tokens: [500, 50] })) }),
      opsResult({ task: 't2', model: 'C', k: 2, trials: [P, F].map((t) => ({ ...t, tokens: [500, 50] })) }),
      opsResult({ task: 't1', model: 'baseline:reference', k: 2, trials: [P, P] }),
      opsResult({ task: 't2', model: 'baseline:reference', k: 2, trials: [P, P] }),
    ];
    for (const [i, r] of more.entries()) await writeFile(join(dir, `more${i}.json`), JSON.stringify(r));
    const json = JSON.parse(await axes({ format: 'json', pareto: true }));
    expect(json.cost).toBe('tokens');
    expect(json.front).toEqual([{ model: 'C', condition: 'clean' }]);
    expect(json.dominated).toEqual([
      {
        model: 'A',
        condition: 'clean',
        by: 'C',
        sentence: 'A is dominated by C: the same completion at higher cost',
      },
      {
        model: 'B',
        condition: 'clean',
        by: 'C',
        sentence: 'B is dominated by C: lower completion at higher cost',
      },
    ]);
    const reference = json.points.find((p: { model: string }) => p.model === 'baseline:reference');
    expect(reference).toMatchObject({ baseline: true, on_front: false, dominated_by: [] });
    expect(json.points.find((p: { model: string }) => p.model === 'B').dominated_by).toEqual(['C', 'A']);
    expect(json.mixed_tasks).toEqual([]);
    const md = await axes({ pareto: 'wall_sec' });
    expect(md).toContain('# Cost against completion (wall seconds per trial)');
    await expect(axes({ pareto: 'usd' })).rejects.toThrow(/needs --price-table/);
    await expect(axes({ pareto: 'bytes' })).rejects.toThrow(UsageError);
    await expect(axes({ pareto: true, format: 'csv' })).rejects.toThrow(/md or json/);
  });
});
