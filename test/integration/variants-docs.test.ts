/**
 * doc_trap_v1 and long_procedure_v1 as variant tasks through the real sandbox: the oracle passes
 * three different instances of each, and doc_trap's reference of one instance replayed on another
 * fails the outcome flag (the memorization check). The whole-suite validate proves three instances of
 * each (test/proofs/validate.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultFile } from '../../src/results/result-file.js';
import { builtIn, oracleRun as oracle, replayOnOther } from './oracle-run.js';

const TASKS = ['doc_trap_v1', 'long_procedure_v1'];
const dirs: string[] = [];
const earlierCache = process.env.AGENT_BENCH_CACHE;

beforeAll(async () => {
  // A cache of its own: the oracle run draws every instance through the generator.
  const cache = await mkdtemp(join(tmpdir(), 'agent-bench-variants-docs-cache-'));
  dirs.push(cache);
  process.env.AGENT_BENCH_CACHE = cache;
});

afterAll(async () => {
  if (earlierCache === undefined) delete process.env.AGENT_BENCH_CACHE;
  else process.env.AGENT_BENCH_CACHE = earlierCache;
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** An oracle run of one task, k = 3, variant seed 1. */
async function oracleRun(id: string): Promise<ResultFile> {
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-variants-docs-'));
  dirs.push(resultsDir);
  return oracle(builtIn(id), { resultsDir });
}

describe.sequential('doc_trap_v1 and long_procedure_v1 variants', () => {
  const runs = new Map<string, ResultFile>();

  it.each(TASKS)(
    '%s: --model oracle --k 3 runs three different instances and passes all',
    async (id) => {
      const result = await oracleRun(id);
      runs.set(id, result);
      expect(result.trials.map((t) => t.status)).toEqual(['passed', 'passed', 'passed']);
      const variants = result.trials.map((t) => t.variant);
      expect(variants.every((v) => typeof v === 'string')).toBe(true);
      expect(new Set(variants).size).toBe(3);
      // Three whole trials of a long task, with the proofs running beside: minutes on a loaded 2-core machine.
    },
    300_000,
  );

  it("doc_trap_v1: instance A's reference solution replayed on instance B fails the outcome flag", async () => {
    const [a, b] = runs.get('doc_trap_v1')?.trials.map((t) => t.variant) ?? [];
    if (typeof a !== 'string' || typeof b !== 'string') throw new Error('no instances');
    const { own, memorized } = await replayOnOther(builtIn('doc_trap_v1'), a, b);
    expect(own.status).toBe('passed');
    expect(memorized.flags.config_correct?.reached).toBe(false);
    expect(memorized.status).toBe('failed');
  });
});
