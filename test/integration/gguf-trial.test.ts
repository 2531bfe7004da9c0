/**
 * Real trials with the embedded backend: tiny generated GGUFs drive debug_python_v1 through the
 * agent loop and a Docker sandbox. Neither can solve it, so each trial must fail cleanly: a
 * well-formed record with tokens counted, no crash, and nothing (model, container) left behind.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../../scripts/make-tiny-gguf.mjs';
import { createEmbeddedModel, type EmbeddedModel } from '../../src/models/gguf-embedded.js';
import type { TrialRecord } from '../../src/results/trial.js';
import { DISPATCH_LIMITS } from '../../src/run/settings.js';
import { checkEngine, createDockerSandbox, DEFAULT_LIMITS, ensureImage } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import type { WorkspaceTask } from '../../src/tasks/types.js';
import { InternalError } from '../../src/util/errors.js';
import { runWorkspaceTrial as runTrial } from '../helpers/workspace-trial.js';
import { builtInTask } from '../tasks/folder-files.js';

const RUN_ID = `gguf-trial-test-${process.pid}`;
const MAX_TOKENS = 64;

let dir: string;
let sandbox: Sandbox | null = null;
let task: WorkspaceTask;

beforeAll(async () => {
  task = builtInTask('debug_python_v1');
  await checkEngine();
  const image = await ensureImage();
  dir = await mkdtemp(join(tmpdir(), 'gguf-trial-'));
  sandbox = await createDockerSandbox({
    image: image.tag,
    limits: DEFAULT_LIMITS,
    labels: { run: RUN_ID, task: task.id },
  });
});

afterAll(async () => {
  await sandbox?.dispose();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** One trial with a freshly generated and loaded model, which is disposed afterwards (and checked). */
async function trialWith(mode: 'babble' | 'tool-call', maxTurns: number): Promise<TrialRecord> {
  if (sandbox === null) throw new Error('no sandbox');
  const modelPath = join(dir, `${mode}.gguf`);
  writeTinyGguf(modelPath, { mode });
  const model: EmbeddedModel = await createEmbeddedModel({
    modelPath,
    threads: 1,
    gpu: false,
    sampling: { temperature: 0.8, seed: 11, maxTokens: MAX_TOKENS },
  });
  try {
    const record = await runTrial({
      index: 0,
      task,
      model,
      sandbox,
      maxTurns,
      limits: { ...DISPATCH_LIMITS, commandTimeoutMs: 20_000 },
    });
    expect(model.info.generationTokensPerSec).toBeGreaterThan(0);
    return record;
  } finally {
    await model.dispose();
    await expect(model.complete([{ role: 'user', content: 'hi' }], [])).rejects.toThrow(InternalError);
  }
}

function expectCleanFailure(record: TrialRecord): void {
  expect(record.status).toBe('failed');
  expect(record.passed).toBe(false);
  expect(record.failure_reason).not.toBeNull();
  expect(record.turn_logs).toHaveLength(record.turns);
  expect(record.usage.prompt_tokens).toBeGreaterThan(0);
  expect(record.usage.completion_tokens).toBeGreaterThan(0);
  for (const turn of record.turn_logs) {
    expect(turn.usage?.completion_tokens).toBeLessThanOrEqual(MAX_TOKENS);
    expect(turn.model_latency_ms).toBeGreaterThan(0);
  }
  expect(Object.keys(record.flags).sort()).toEqual(task.flags.map((f) => f.id).sort());
}

describe('trials driven by a tiny GGUF', () => {
  it('a babbling model: answers without tools on turn 1 and fails', async () => {
    const record = await trialWith('babble', 3);
    expectCleanFailure(record);
    expect(record.turns).toBeGreaterThanOrEqual(1);
    expect(record.turns).toBeLessThanOrEqual(3);
  });

  it('a tool-calling model: its native calls run in the sandbox every turn until max turns', async () => {
    const record = await trialWith('tool-call', 3);
    expectCleanFailure(record);
    expect(record.failure_reason).toBe('ran out of turns (3)');
    expect(record.turns).toBe(3);
    expect(record.native_tool_calls).toBe(3);
    expect(record.invalid_tool_call_count).toBe(0);
    const firstEntry = task.files[0]?.path.split('/')[0] ?? '';
    for (const turn of record.turn_logs) {
      expect(turn.finish_reason).toBe('tool_calls');
      expect(turn.tool_calls).toHaveLength(1);
      expect(turn.tool_calls[0]).toMatchObject({ name: 'execute_command', source: 'native', exit_code: 0 });
      expect(turn.tool_calls[0]?.stdout).toContain(firstEntry);
    }
  });

  it('leaves no container behind', async () => {
    await sandbox?.dispose();
    sandbox = null;
    const left = await new Docker().listContainers({
      all: true,
      filters: { label: [`agent-bench.run=${RUN_ID}`] },
    });
    expect(left).toEqual([]);
  });
});
