/**
 * The whole helpdesk pack through the real runner (runBench: resolve the model, run k=3 trials per
 * task, write the results files), with the scripted baseline and the oracle: no model server, and
 * no Docker (every engine dependency throws if touched). Then validate over the same tasks, and the
 * tasks' flags re-judged from the records written.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportAxesCommand } from '../../src/cli/commands/report.js';
import { selectTasks } from '../../src/cli/select-tasks.js';
import { BASELINE_MODEL } from '../../src/dialogue/baseline/baseline-model.js';
import type { RunCondition } from '../../src/results/condition.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { readResultFiles } from '../../src/results/store.js';
import { type BenchDeps, runBench } from '../../src/run/run-bench.js';
import type { CheckContext, DialogueTaskRef, Task } from '../../src/tasks/types.js';
import { INJECTION_CLASSES } from '../../src/trial/injection/catalogue.js';
import { validateTasks } from '../../src/validate/validate-tasks.js';
import { runSettings } from '../helpers/run-settings.js';

const TASKS = selectTasks('helpdesk_*');
const NO_ENGINE: Partial<BenchDeps> = {
  checkEngine: () => Promise.reject(new Error('the engine was asked for')),
  sweepSandboxes: () => Promise.reject(new Error('the engine was asked for')),
  ensureImage: () => Promise.reject(new Error('the image was asked for')),
  createSandbox: () => Promise.reject(new Error('a sandbox was asked for')),
};
const quiet = { write: () => true };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'helpdesk-run-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function bench(
  model: string,
  resultsDir: string,
  o: { tasks?: Task[]; k?: number; conditions?: RunCondition[] } = {},
): Promise<ResultFile[]> {
  return runBench(
    {
      tasks: o.tasks ?? TASKS,
      settings: runSettings({ k: o.k ?? 3 }),
      resultsDir,
      resume: false,
      ...(o.conditions === undefined ? {} : { conditions: o.conditions }),
      model: {
        model,
        apiKeyEnv: 'NO_SUCH_KEY',
        sampling: { temperature: 0 },
        requestTimeoutMs: 1000,
        retries: 0,
      },
      stdout: quiet,
      stderr: quiet,
      handleSignals: false,
    },
    NO_ENGINE,
  );
}

describe('the helpdesk pack, k=3', () => {
  it('is selected by a glob: every scenario, all dialogue tasks', () => {
    expect(TASKS.length).toBe(18);
    expect(TASKS.every((t) => t.id.startsWith('helpdesk_') && t.kind === 'dialogue')).toBe(true);
    expect(() => selectTasks('helpdesk_nope_*')).toThrow(/no task matches "helpdesk_nope_\*"/);
  });

  it('runs the scripted baseline: the same verdict every trial, pass^3 per scenario, results on disk', async () => {
    const results = await bench(BASELINE_MODEL, join(dir, 'baseline'));
    expect(results).toHaveLength(18);
    for (const r of results) {
      expect(r.model).toBe(BASELINE_MODEL);
      expect(r.trials).toHaveLength(3);
      expect(r.environment.docker_version).toBeNull();
      // Deterministic agent and user: all three trials agree, so pass^3 is 0 or 1.
      expect(new Set(r.trials.map((t) => t.passed)).size).toBe(1);
      expect(r.pass_hat_k).toBe(r.trials[0]?.passed ? 1 : 0);
      expect(r.trials[0]?.dialogue?.dimension).toBe(
        dialogueOf(TASKS.find((t) => t.id === r.task_id))?.dimension,
      );
    }
    expect(results.filter((r) => r.pass_all_k).length).toBe(13);
    // Written, and read back through the results schema with the dialogue records whole.
    const onDisk = await readResultFiles(join(dir, 'baseline'));
    expect(onDisk.problems).toEqual([]);
    expect(onDisk.results).toHaveLength(18);
    const read = onDisk.results.find((x) => x.result.task_id === 'helpdesk_id_wrong_code')?.result.trials[0];
    expect(read?.dialogue).toMatchObject({
      dimension: 'identity_verification',
      user: { kind: 'scripted' },
      end: 'user_ended',
    });
    expect(read?.turn_logs.some((l) => l.user_reply?.ended === true)).toBe(true);
  });

  it('runs the oracle: every reference solution passes every trial', async () => {
    const results = await bench('oracle', join(dir, 'oracle'));
    expect(results.map((r) => [r.task_id, r.pass_all_k]).filter(([, ok]) => !ok)).toEqual([]);
  });

  it('runs dialogue tasks under every condition: faults and payloads at the domain tools, in the turn log', async () => {
    const results = await bench(BASELINE_MODEL, join(dir, 'conditions'), {
      tasks: selectTasks('helpdesk_oos_payroll'),
      k: 1,
      conditions: [
        { name: 'clean' },
        { name: 'noisy', failure_rate: 1, fault_timeout_sec: 0 },
        { name: 'adversarial', injection_site: 'sampled', injection_rate: 1 },
      ],
    });
    expect(results.map((r) => r.condition?.name)).toEqual(['clean', 'noisy', 'adversarial']);
    const calls = (r: ResultFile | undefined) =>
      r?.trials.flatMap((t) => t.turn_logs.flatMap((l) => l.tool_calls)) ?? [];
    const [clean, noisy, adversarial] = results;
    expect(calls(clean).length).toBeGreaterThan(0);
    expect(calls(clean).some((c) => c.fault !== undefined || c.injection !== undefined)).toBe(false);
    // Every call faulted: the ticket API answered with a timeout, a 500, a 429... and nothing ran.
    expect(calls(noisy).length).toBeGreaterThan(0);
    expect(calls(noisy).every((c) => c.fault !== undefined && c.exit_code === null)).toBe(true);
    expect(noisy?.trials[0]?.dialogue?.state_changes).toEqual([]);
    // Every domain tool result carried the payload, and the trial was judged on it.
    const attacked = calls(adversarial);
    expect(attacked.length).toBeGreaterThan(0);
    expect(attacked.every((c) => c.injection?.site === 'sampled:1')).toBe(true);
    expect(adversarial?.trials[0]?.safety).toMatchObject({
      exposures: attacked.length,
      no_injection_compliance: { reached: true },
    });
  });

  it('deals every injection class over 4 tasks × k=5, and report axes shows each class with its exposures', async () => {
    const resultsDir = join(dir, 'classes');
    await bench(BASELINE_MODEL, resultsDir, {
      tasks: TASKS.slice(0, 4),
      k: 5,
      conditions: [{ name: 'adversarial', injection_site: 'sampled', injection_rate: 1 }],
    });
    const axes = async (format: 'json' | 'md'): Promise<string> => {
      const out = new PassThrough();
      let text = '';
      out.on('data', (d) => {
        text += String(d);
      });
      await reportAxesCommand({ resultsDir, format, stdout: out, stderr: new PassThrough() });
      return text;
    };
    type ClassRow = { class: string; exposures: number; exposed_trials: number; too_few_to_rank: boolean };
    const { rows } = JSON.parse(await axes('json')) as {
      rows: { safety: { by_class: ClassRow[] } | null }[];
    };
    const byClass = rows.flatMap((r) => r.safety?.by_class ?? []);
    expect(byClass.map((c) => c.class).sort()).toEqual(INJECTION_CLASSES.map((c) => c.id).sort());
    expect(byClass.every((c) => c.exposures >= c.exposed_trials && c.exposed_trials >= 1)).toBe(true);
    // 20 trials over 17 classes: no class has the 10 exposed trials a rank needs.
    expect(byClass.every((c) => c.too_few_to_rank)).toBe(true);
    const md = await axes('md');
    expect(md).toMatch(/\| model \| class \| exposed \| exposures \|/);
    expect(md).toContain('too few to rank (< 10 exposed trials)');
  });

  it('re-judges every trial from its record alone to the same flags', async () => {
    const results = await bench(BASELINE_MODEL, join(dir, 'rejudge'));
    for (const r of results) {
      const task = TASKS.find((t) => t.id === r.task_id);
      for (const trial of r.trials) {
        const calls = trial.turn_logs.flatMap((l) => l.tool_calls.map((c) => ({ ...c, turn: l.turn })));
        const ctx = { turns: trial.turn_logs, calls } as unknown as CheckContext;
        // A seeded scenario's trial is judged as the instance it ran.
        const variants = task?.variants?.drawn === 'harness' ? task.variants : undefined;
        const judged =
          variants === undefined || trial.variant === undefined ? task : variants.instanceOf(trial.variant);
        for (const flag of judged?.flags ?? []) {
          const outcome = await flag.check(ctx);
          const recorded = trial.flags[flag.id];
          // An absence that held is credited only with an outcome: compare before crediting.
          if (recorded?.detail === 'no outcome reached: an absence is credited only with work done') continue;
          expect(outcome.reached, `${r.task_id} ${flag.id}`).toBe(recorded?.reached);
        }
      }
    }
  });
});

describe('validate', () => {
  it('proves every scenario sound with no sandbox', async () => {
    const rows = await validateTasks(TASKS, { openSandbox: () => Promise.reject(new Error('no sandbox')) });
    expect(rows.filter((r) => r.kind !== 'passed')).toEqual([]);
    // A seeded scenario is proven on an instance it draws (its rows named by it).
    expect(rows.filter((r) => /^(instance \S+: )?oracle$/.test(r.run))).toHaveLength(18);
    expect(rows.filter((r) => r.run.startsWith('instance ')).map((r) => r.taskId)).toContain(
      'helpdesk_id_password_reset',
    );
    const scripted = (t: Task) =>
      (t.lures?.length ?? 0) + (t.cheats?.length ?? 0) + (t.alternates?.length ?? 0);
    expect(rows.length).toBe(18 * 2 + TASKS.reduce((n, t) => n + scripted(t), 0));
    // The cheats and alternates each scenario declares are validate's rows too.
    expect(rows.filter((r) => /(^|: )cheat:/.test(r.run)).length).toBeGreaterThanOrEqual(12);
    expect(rows.filter((r) => /(^|: )alternate:/.test(r.run)).length).toBeGreaterThanOrEqual(2);
  });
});

function dialogueOf(task: Task | undefined): DialogueTaskRef | undefined {
  return task?.kind === 'dialogue' ? task.dialogue : undefined;
}
