/** The regression gate on crafted baselines: exit 1 for a regression beyond the noise, 0 otherwise, 2 for bad usage. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gateCommand } from '../../src/cli/commands/gate.js';
import type { GateOn } from '../../src/report/gate.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { withHash } from '../../src/results/store.js';
import { AgentBenchError } from '../../src/util/errors.js';
import { F, type OpsTrial, opsResult, P } from './ops-results.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'gate-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const TASKS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

async function folder(name: string, results: ResultFile[]): Promise<string> {
  const dir = join(root, name);
  await rm(dir, { recursive: true, force: true });
  await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
  for (const [i, r] of results.entries()) await writeFile(join(dir, `r${i}.json`), JSON.stringify(r));
  return dir;
}

const suite = (model: string, trials: (task: string, i: number) => OpsTrial[]) =>
  TASKS.map((task, i) => opsResult({ task, model, k: 2, trials: trials(task, i) }));

/** Exit code and output of one gate run. */
async function gate(
  baseline: string,
  candidate: string,
  extra: { costTolerance?: number; baselineModel?: string; gateOn?: GateOn } = {},
) {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => {
    text += String(d);
  });
  try {
    await gateCommand({
      baseline,
      candidate,
      costTolerance: extra.costTolerance ?? 0.2,
      ...(extra.gateOn === undefined ? {} : { gateOn: extra.gateOn }),
      stdout: out,
      stderr: new PassThrough(),
      ...(extra.baselineModel === undefined ? {} : { baselineModel: extra.baselineModel }),
    });
    return { code: 0, text };
  } catch (err) {
    if (!(err instanceof AgentBenchError)) throw err;
    return { code: err.exitCode, text: `${text}${err.message}` };
  }
}

describe('agent-bench gate', () => {
  it('passes a candidate that is as good as the baseline', async () => {
    const base = await folder(
      'base',
      suite('m', () => [P, P]),
    );
    const cand = await folder(
      'cand',
      suite('m2', () => [P, P]),
    );
    const r = await gate(base, cand);
    expect(r.code).toBe(0);
    expect(r.text).toContain('clean completion: 1.00 → 1.00');
    expect(r.text).toContain('no regression beyond the noise');
  });

  it('fails a candidate whose completion and pass^k fell on every task, and says why', async () => {
    const base = await folder(
      'base',
      suite('m', () => [P, P]),
    );
    const cand = await folder(
      'cand',
      suite('m', () => [P, F]),
    );
    const r = await gate(base, cand);
    expect(r.code).toBe(1);
    expect(r.text).toMatch(
      /REGRESSION clean completion: 1\.00 → 0\.50, -0\.50 \[-0\.\d\d, -0\.\d\d\] over 8 tasks, 16\+16 trials, exact p = 0\.008 \(worse\)/,
    );
    expect(r.text).toMatch(/REGRESSION clean pass_k: 1\.00 → 0\.00/);
  });

  describe('on one skill (one task), with the trials as the evidence', () => {
    const one = (model: string, trials: OpsTrial[]) => [opsResult({ task: 'skill', model, k: 5, trials })];

    it('fails 5/5 → 0/5 (exact p = 0.008) and says how small a drop it could have seen', async () => {
      const base = await folder('base', one('m', [P, P, P, P, P]));
      const cand = await folder('cand', one('m2', [F, F, F, F, F]));
      const r = await gate(base, cand);
      expect(r.code).toBe(1);
      expect(r.text).toMatch(
        /REGRESSION clean completion: 1\.00 → 0\.00, -1\.00 \[-1\.00, -1\.00\] over 1 task, 5\+5 trials, exact p = 0\.008 \(worse\)/,
      );
      expect(r.text).toContain(
        'note: clean: the smallest drop in completion detectable with 5 baseline and 5 candidate trials over 1 task is 0.80',
      );
    });

    it('passes equal candidates, and a drop too small for these trials (5/5 → 3/5)', async () => {
      const base = await folder('base', one('m', [P, P, P, P, P]));
      const same = await folder('same', one('m2', [P, P, P, P, P]));
      expect((await gate(base, same)).code).toBe(0);
      const slightly = await folder('slightly', one('m2', [P, F, P, F, P]));
      const r = await gate(base, slightly);
      expect(r.code).toBe(0);
      expect(r.text).toMatch(/clean completion: 1\.00 → 0\.60, -0\.40 .* exact p = 0\.444 \(within noise\)/);
    });

    it('says when no drop could be seen at all (one trial a side)', async () => {
      const base = await folder('base', one('m', [P]));
      const cand = await folder('cand', one('m2', [F]));
      const r = await gate(base, cand);
      expect(r.code).toBe(0);
      expect(r.text).toContain(
        'no drop in completion could be detected with 1 baseline and 1 candidate trials over 1 task: raise k',
      );
    });
  });

  it('passes a difference within the noise: some tasks worse, as many better', async () => {
    const base = await folder(
      'base',
      suite('m', (_, i) => (i % 2 === 0 ? [P, P] : [F, F])),
    );
    const cand = await folder(
      'cand',
      suite('m', (_, i) => (i % 2 === 0 ? [F, F] : [P, P])),
    );
    const r = await gate(base, cand);
    expect(r.code).toBe(0);
    expect(r.text).toContain('(within noise)');
  });

  it('gates on what the model did, not on the time a busy machine took, unless asked', async () => {
    // The same scripted model twice: the same tokens, but the second run on a machine three times
    // as loaded took three times the wall time and a little more reply time.
    const onMachine = (results: ResultFile[], load: number) =>
      results.map(({ result_hash: _, schema_version: __, ...r }) =>
        withHash({ ...r, environment: { ...r.environment, machine: { cores: 2, load_1m: load } } }),
      );
    const quiet = await folder(
      'quiet',
      onMachine(
        suite('m', () => [{ passed: true, tokens: [1000, 100], sec: 10, latencyMs: 2 }]),
        0.4,
      ),
    );
    const busy = await folder(
      'busy',
      onMachine(
        suite('m', () => [{ passed: true, tokens: [1000, 100], sec: 30, latencyMs: 6 }]),
        3.9,
      ),
    );
    const byTokens = await gate(quiet, busy);
    expect(byTokens.code).toBe(0);
    expect(byTokens.text).not.toContain('wall_sec');
    const byWall = await gate(quiet, busy, { gateOn: 'wall' });
    expect(byWall.code).toBe(1);
    expect(byWall.text).toMatch(/REGRESSION clean wall_sec: 10\.00 → 30\.00/);
    expect(byWall.text).toContain(
      "note: the two runs' machines differ (baseline load 0.4 on 2 cores, candidate load 3.9 on 2 cores): their times compare loosely",
    );
    expect((await gate(quiet, busy, { gateOn: 'model-time' })).text).toMatch(/REGRESSION clean model_sec/);
  });

  it('fails a cost rise beyond the tolerance, and passes it under a looser one', async () => {
    const base = await folder(
      'base',
      suite('m', () => [{ passed: true, tokens: [1000, 100] }]),
    );
    const cand = await folder(
      'cand',
      suite('m', () => [{ passed: true, tokens: [1500, 150] }]),
    );
    const strict = await gate(base, cand, { costTolerance: 0.2 });
    expect(strict.code).toBe(1);
    expect(strict.text).toMatch(/REGRESSION clean tokens: 1100 → 1650.*more than the 20 % tolerance/);
    expect((await gate(base, cand, { costTolerance: 0.6 })).code).toBe(0);
  });

  it('is bad usage (exit 2) for a folder without results, two models where one is meant, or nothing in common', async () => {
    const empty = await folder('empty', []);
    const base = await folder(
      'base',
      suite('m', () => [P]),
    );
    expect((await gate(empty, base)).code).toBe(2);
    const two = await folder('two', [...suite('m', () => [P]), ...suite('n', () => [P])]);
    const ambiguous = await gate(two, base);
    expect(ambiguous).toMatchObject({ code: 2 });
    expect(ambiguous.text).toContain('several models (m, n)');
    expect((await gate(two, base, { baselineModel: 'n' })).code).toBe(0);
    const other = await folder('other', [opsResult({ task: 'zzz', model: 'm', trials: [P] })]);
    expect((await gate(base, other)).code).toBe(2);
    expect((await gate(join(root, 'missing'), base)).code).toBe(2);
  });

  it('leaves scripted baselines in a folder out of the choice of model', async () => {
    const base = await folder('base', [...suite('m', () => [P]), ...suite('baseline:refuse-all', () => [F])]);
    const cand = await folder(
      'cand',
      suite('m', () => [P]),
    );
    expect((await gate(base, cand)).code).toBe(0);
  });

  it('never takes the scripted dialogue baseline for the model under test', async () => {
    const base = await folder('base', [...suite('m', () => [P]), ...suite('scripted-baseline', () => [P])]);
    const cand = await folder('cand', [...suite('scripted-baseline', () => [P]), ...suite('m', () => [F])]);
    const { code, text } = await gate(base, cand);
    expect(text).toContain('gate: m (');
    expect(text).toContain('against m (');
    expect(code).toBe(1);
  });
});
