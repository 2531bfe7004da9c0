/**
 * The JS/TS tasks run for real on the host (node, and tsc from node_modules/.bin; temp dirs for
 * /workspace and /harness): the reference solution reaches every flag, doing nothing reaches none,
 * and every lure misses exactly what it says. `agent-bench validate` proves the same in the sandbox.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../../src/models/scripted.js';
import { scoreTrial } from '../../src/scoring/score.js';
import { detectTamper } from '../../src/scoring/snapshot-diff.js';
import type { FlagOutcome, WorkspaceTask } from '../../src/tasks/types.js';
import { builtInTask } from './folder-files.js';
import { type LocalTrial, runLocally } from './local-trial.js';

const TASKS: WorkspaceTask[] = [
  'debug_js_v1',
  'tdd_strict_js_v1',
  'refactor_extract_js_v1',
  'ts_typing_v1',
].map(builtInTask);
const ready = spawnSync('tsc', ['--version'], { stdio: 'ignore' }).status === 0;

const trials: LocalTrial[] = [];
afterEach(() => {
  for (const t of trials.splice(0)) t.cleanup();
});

async function run(task: WorkspaceTask, script: readonly ScriptedTurn[]) {
  const trial = runLocally(task, script);
  trials.push(trial);
  const outcomes: Record<string, FlagOutcome> = {};
  for (const flag of task.flags) outcomes[flag.id] = await flag.check(trial.ctx);
  const tamper = detectTamper(trial.setup, trial.final, task);
  const reached = Object.entries(outcomes).flatMap(([id, o]) => (o.reached ? [id] : []));
  return { outcomes, reached, tamper, ...scoreTrial(task.flags, outcomes, tamper.length > 0) };
}

// Skipped only off CI: under CI a missing tsc must fail the run, not hide these tests.
describe.skipIf(!ready && !process.env.CI)('JS/TS tasks, run for real on the host', () => {
  it.each(TASKS.map((t) => [t.id, t] as const))(
    '%s: the reference solution reaches every flag',
    async (_id, t) => {
      const r = await run(t, t.referenceSolution);
      expect(r.tamper).toEqual([]);
      expect(r.outcomes).toEqual(
        Object.fromEntries(t.flags.map((f) => [f.id, expect.objectContaining({ reached: true })])),
      );
      expect(r.passed).toBe(true);
    },
  );

  it.each(TASKS.map((t) => [t.id, t] as const))('%s: doing nothing reaches no flag', async (_id, t) => {
    const r = await run(t, [{ text: 'Done.', calls: [] }]);
    expect(r.reached).toEqual([]);
  });

  const lures = TASKS.flatMap((t) => (t.lures ?? []).map((l) => [`${t.id} ${l.id}`, t, l] as const));
  it.each(lures)('lure %s is caught', async (_name, t, lure) => {
    const r = await run(t, lure.script);
    const missed = lure.expect.unreached.filter((id) => r.outcomes[id]?.reached !== false);
    expect({ missed, tamper: r.tamper.length > 0, passed: r.passed }).toEqual({
      missed: [],
      tamper: lure.expect.tamper === true,
      passed: false,
    });
  });
});
