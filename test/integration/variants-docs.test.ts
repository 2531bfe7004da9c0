/**
 * doc_trap_v1 and long_procedure_v1 as variant tasks through the real sandbox: the oracle passes
 * three different instances of each, validate --variants 3 proves them, and doc_trap's reference of
 * one instance replayed on another fails the outcome flag (the memorization check).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTrial } from '../../src/agent/loop.js';
import { getTask } from '../../src/catalogue/built-in.js';
import { createScriptedModel } from '../../src/models/scripted.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { runBench } from '../../src/run/run-bench.js';
import { DEFAULT_LIMITS, DISPATCH_LIMITS } from '../../src/run/settings.js';
import { createDockerSandbox, ensureImage } from '../../src/sandbox/index.js';
import type { SandboxTask, Task } from '../../src/tasks/types.js';
import { instanceSource } from '../../src/tasks/variants/instances.js';
import { harnessDigest } from '../../src/validate/harness-digest.js';
import { defaultProofDir, openProofCache } from '../../src/validate/proof-cache.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { runSettings } from '../helpers/run-settings.js';

const TASKS = ['doc_trap_v1', 'long_procedure_v1'];
const dirs: string[] = [];
const earlierCache = process.env.AGENT_BENCH_CACHE;
/** The machine's proof cache, as the whole-suite validate uses it: read before the instances' cache moves. */
const PROOF_DIR = defaultProofDir();

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

function builtIn(id: string): Task {
  const task = getTask(id);
  if (task === undefined) throw new Error(`${id} missing`);
  return task;
}

/** An oracle run of one task, k = 3, variant seed 1. */
async function oracleRun(id: string): Promise<ResultFile> {
  const resultsDir = await mkdtemp(join(tmpdir(), 'agent-bench-variants-docs-'));
  dirs.push(resultsDir);
  const settings = runSettings({ k: 3 });
  const [result] = await runBench({
    tasks: [builtIn(id)],
    settings,
    resultsDir,
    resume: false,
    variants: { seed: 1 },
    model: {
      model: 'oracle',
      apiKeyEnv: 'AGENT_BENCH_TEST_KEY',
      sampling: settings.sampling,
      requestTimeoutMs: 30_000,
      retries: 0,
    },
    stdout: { write: () => true },
    stderr: { write: () => true, isTTY: false },
    handleSignals: false,
  });
  if (result === undefined) throw new Error(`no result for ${id}`);
  return result;
}

describe.sequential('doc_trap_v1 and long_procedure_v1 variants', () => {
  const runs = new Map<string, ResultFile>();

  it.each(TASKS)('%s: --model oracle --k 3 runs three different instances and passes all', async (id) => {
    const result = await oracleRun(id);
    runs.set(id, result);
    expect(result.trials.map((t) => t.status)).toEqual(['passed', 'passed', 'passed']);
    const variants = result.trials.map((t) => t.variant);
    expect(variants.every((v) => typeof v === 'string')).toBe(true);
    expect(new Set(variants).size).toBe(3);
  });

  it("doc_trap_v1: instance A's reference solution replayed on instance B fails the outcome flag", async () => {
    const base = builtIn('doc_trap_v1');
    const [a, b] = runs.get('doc_trap_v1')?.trials.map((t) => t.variant) ?? [];
    if (base.kind !== 'sandbox' || typeof a !== 'string' || typeof b !== 'string')
      throw new Error('no instances');
    const image = await ensureImage();
    const sandbox = await createDockerSandbox({
      image: image.tag,
      limits: DEFAULT_LIMITS,
      labels: { run: 'variants-docs-test' },
    });
    try {
      const source = instanceSource();
      const open = async () => sandbox;
      const instanceA: SandboxTask = await source.instance(base, a, open);
      const instanceB: SandboxTask = await source.instance(base, b, open);
      const replay = (task: SandboxTask, script: SandboxTask['referenceSolution']) =>
        runTrial({
          index: 0,
          task,
          model: createScriptedModel('memorized', script),
          sandbox,
          maxTurns: task.maxTurns,
          limits: { ...DISPATCH_LIMITS, commandTimeoutMs: 60_000 },
        });
      const own = await replay(instanceB, instanceB.referenceSolution);
      expect(own.status).toBe('passed');
      await sandbox.reset();
      const memorized = await replay(instanceB, instanceA.referenceSolution);
      expect(memorized.flags.config_correct?.reached).toBe(false);
      expect(memorized.status).toBe('failed');
    } finally {
      await sandbox.dispose();
    }
  });

  it('validate --variants 3 proves three instances of each: oracle, do-nothing, lures, alternates, cheats', async () => {
    const image = await ensureImage();
    const rows = await validateTasks(TASKS.map(builtIn), {
      openSandbox: () =>
        createDockerSandbox({
          image: image.tag,
          limits: DEFAULT_LIMITS,
          labels: { run: 'variants-docs-test' },
        }),
      variants: 3,
      // As the whole-suite validate does: instances proven at once, each in its own sandbox, and an
      // instance unchanged since it was proven on this machine is not proven again.
      parallel: availableParallelism() * 2,
      proofs: {
        cache: openProofCache({ dir: PROOF_DIR, onNote: (line) => void process.stderr.write(`${line}\n`) }),
        inputs: { image: image.id, harness: harnessDigest() },
      },
    });
    expect(rows.filter((r) => r.kind !== 'passed' && r.kind !== 'cached')).toEqual([]);
    for (const id of TASKS) {
      const instances = new Set(
        rows.filter((r) => r.taskId === id).map((r) => /^instance (\S+):/.exec(r.run)?.[1]),
      );
      expect(instances.size, id).toBe(3);
      expect(instances.has(undefined), id).toBe(false);
    }
  }, 900_000);
});
