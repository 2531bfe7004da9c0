/**
 * `export atif`: a trial's turns as an ATIF v1.4 trajectory (one agent step per turn, its calls and
 * what they returned, a dialogue user's reply as a user step, the verdict in final_metrics), and the
 * command's two forms and its one-line refusals.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_PROMPT } from '../../src/agent/system-prompt.js';
import { getTask } from '../../src/catalogue/built-in.js';
import { exportAtifCommand } from '../../src/cli/commands/export.js';
import { trialTrajectory } from '../../src/report/atif.js';
import type { ResultFile } from '../../src/results/result-file.js';
import { withHash, writeResultFile } from '../../src/results/store.js';
import type { TurnLog } from '../../src/results/trial.js';
import { taskVersion } from '../../src/tasks/version.js';
import { UsageError } from '../../src/util/errors.js';
import { HARNESS_VERSION } from '../../src/util/version.js';
import { MISS, PASS, result } from '../helpers/result-builder.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const TURNS: TurnLog[] = [
  {
    turn: 1,
    assistant_text: 'Let me run the tests.',
    tool_calls: [
      {
        name: 'execute_command',
        arguments: { command: 'pytest -q' },
        raw_arguments: '{"command":"pytest -q"}',
        source: 'native',
        invalid: null,
        cwd: '/workspace',
        exit_code: 1,
        stdout: '1 failed',
        stderr: 'warning',
        truncated: false,
        timed_out: false,
        elapsed_ms: 30,
        fault: { kind: 'timeout', call_index: 0 },
      },
      {
        name: 'run_shell',
        arguments: null,
        raw_arguments: '{',
        source: 'text',
        invalid: 'unknown_tool',
        cwd: '/workspace',
        exit_code: null,
        stdout: '',
        stderr: '',
        truncated: false,
        timed_out: false,
        elapsed_ms: 0,
      },
    ],
    elapsed_ms: 200,
    model_latency_ms: 150,
    usage: { prompt_tokens: 120, completion_tokens: 15 },
    finish_reason: 'tool_calls',
    retries: [],
    malformed: null,
    user_reply: { text: 'Any luck?', ended: false },
  },
  {
    turn: 2,
    assistant_text: 'Fixed.',
    tool_calls: [],
    elapsed_ms: 90,
    model_latency_ms: 90,
    usage: null,
    finish_reason: 'stop',
    retries: [],
    malformed: null,
  },
];

function crafted(): ResultFile {
  const {
    result_hash: _h,
    schema_version: _v,
    ...base
  } = result({ task: 'fix_v1', model: 'qwen', trials: [PASS, MISS] });
  const trials = base.trials.map((t, i) => (i === 1 ? { ...t, turn_logs: TURNS } : t));
  return withHash({ ...base, trials });
}

describe('a trial as an ATIF trajectory', () => {
  it('has one agent step per turn, its calls and observations, and the user reply after it', () => {
    const r = crafted();
    const trial = r.trials[1];
    if (trial === undefined) throw new Error('no trial 1');
    const t = trialTrajectory(r, trial);
    expect(t.schema_version).toBe('ATIF-v1.4');
    expect(t.session_id).toBe(`${r.run_id}/fix_v1/2`);
    expect(t.agent).toEqual({
      name: 'agent-bench',
      version: r.environment.harness_version,
      model_name: 'qwen',
    });
    expect(t.steps.map((s) => [s.step_id, s.source, s.message])).toEqual([
      [1, 'agent', 'Let me run the tests.'],
      [2, 'user', 'Any luck?'],
      [3, 'agent', 'Fixed.'],
    ]);
    // No wall clock per turn in the record: from the trial's start, the turns before it and the reply's latency.
    expect(t.steps.map((s) => s.timestamp)).toEqual([
      '2025-01-01T00:00:00.150Z',
      '2025-01-01T00:00:00.200Z',
      '2025-01-01T00:00:00.290Z',
    ]);
    expect(t.notes).toMatch(/step timestamps are derived from the trial's start/);
    const first = t.steps[0];
    expect(first?.tool_calls).toEqual([
      { tool_call_id: 'call_1_1', function_name: 'execute_command', arguments: { command: 'pytest -q' } },
      { tool_call_id: 'call_1_2', function_name: 'run_shell', arguments: { raw_arguments: '{' } },
    ]);
    expect(first?.observation?.results).toEqual([
      { source_call_id: 'call_1_1', content: '1 failed\n[stderr]\nwarning\n[exit code 1]' },
      { source_call_id: 'call_1_2', content: 'not run: unknown_tool' },
    ]);
    expect(first?.metrics).toEqual({ prompt_tokens: 120, completion_tokens: 15 });
    expect(first?.extra?.conditions).toEqual([{ tool_call_id: 'call_1_1', fault: 'timeout' }]);
    expect(t.steps[2]?.tool_calls).toBeUndefined();
    expect(t.steps[2]?.metrics).toBeUndefined();
    expect(t.final_metrics).toMatchObject({ total_steps: 3, extra: { passed: false, status: 'failed' } });
    expect(t.notes).toMatch(/trial 2: failed, score 0\.5/);
  });
});

describe('a trial as a Harbor trial folder', () => {
  it("the reward is a Harbor task's own reward, 1 or 0 for a native task's pass, and none for a trial not measured", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atif-'));
    dirs.push(dir);
    const { result_hash: _h, ...base } = result({
      task: 'harbor_t',
      model: 'qwen',
      trials: [PASS, { status: 'error' }, MISS],
    });
    const trials = base.trials.map((t, i) =>
      i === 2
        ? {
            ...t,
            flags: { reward: { reached: false, turn: null, kind: 'outcome' as const } },
            score: 0.5,
            passed: false,
          }
        : t,
    );
    const file = await writeResultFile(dir, withHash({ ...base, trials }));
    const out = join(dir, 'jobs');
    await exportAtifCommand(file, { out }, { write: () => true });
    expect(readFileSync(join(out, 'harbor_t__1', 'verifier', 'reward.txt'), 'utf8')).toBe('1\n');
    expect(existsSync(join(out, 'harbor_t__2', 'verifier'))).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'harbor_t__2', 'result.json'), 'utf8'))).toMatchObject({
      verifier_result: null,
      exception_info: { exception_type: 'HarnessError', exception_message: 'crafted' },
    });
    expect(readFileSync(join(out, 'harbor_t__3', 'verifier', 'reward.txt'), 'utf8')).toBe('0.5\n');
  });

  it('a trial whose start is no date is refused in one line', () => {
    const r = crafted();
    const trial = r.trials[0];
    if (trial === undefined) throw new Error('no trial');
    expect(() => trialTrajectory(r, { ...trial, started_at: 'yesterday' })).toThrow(
      new UsageError('trial 1: started_at "yesterday" is not a date'),
    );
  });
});

describe('agent-bench export atif', () => {
  it('prints one trial with --trial, writes every trial with --out, and refuses anything else in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atif-'));
    dirs.push(dir);
    const file = await writeResultFile(dir, crafted());
    let printed = '';
    // Numbered from 1, as the CLI prints trials: trial 2 is the file's index 1.
    await exportAtifCommand(file, { trial: 2 }, { write: (s: string) => (printed += s) });
    expect(JSON.parse(printed).steps).toHaveLength(3);
    const out = join(dir, 'atif');
    await exportAtifCommand(file, { out }, { write: () => true });
    for (const i of [0, 1])
      expect(
        JSON.parse(readFileSync(join(out, `fix_v1__${i + 1}`, 'agent', 'trajectory.json'), 'utf8'))
          .session_id,
      ).toMatch(new RegExp(`/fix_v1/${i + 1}$`));
    // A Harbor trial folder each: the pass as reward 1, the miss as 0, and a result.json beside them.
    expect(readFileSync(join(out, 'fix_v1__1', 'verifier', 'reward.txt'), 'utf8')).toBe('1\n');
    expect(readFileSync(join(out, 'fix_v1__2', 'verifier', 'reward.txt'), 'utf8')).toBe('0\n');
    const summary = JSON.parse(readFileSync(join(out, 'fix_v1__2', 'result.json'), 'utf8'));
    expect(summary).toMatchObject({
      task_name: 'fix_v1',
      trial_name: 'fix_v1__2',
      task_checksum: '1',
      agent_info: { name: 'agent-bench', model_info: { name: 'qwen' } },
      agent_result: { n_input_tokens: 100, n_output_tokens: 10 },
      verifier_result: { rewards: { reward: 0 } },
      exception_info: null,
      started_at: '2025-01-01T00:00:00.000Z',
      finished_at: '2025-01-01T00:00:11.000Z',
      agent_bench: { trial: 2, status: 'failed', passed: false, flags: { 'p:observed': true, fixed: false } },
    });
    await expect(exportAtifCommand(file, {})).rejects.toThrow(UsageError);
    await expect(exportAtifCommand(file, { trial: 7 })).rejects.toThrow(
      `${file} has no trial 7; its trials: 1, 2`,
    );
    await expect(exportAtifCommand(join(dir, 'none.json'), { trial: 0 })).rejects.toThrow(
      /none\.json: cannot be read/,
    );
  });

  it('--out writes inside DIR whatever task id the file names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atif-'));
    dirs.push(dir);
    const { result_hash: _h, ...base } = crafted();
    const file = await writeResultFile(dir, withHash({ ...base, task_id: '../../escaped' }));
    const out = join(dir, 'deep', 'atif');
    await exportAtifCommand(file, { out }, { write: () => true });
    expect(existsSync(join(dir, 'escaped__1'))).toBe(false);
    const written = readdirSync(out);
    expect(written).toHaveLength(2);
    for (const name of written) expect(name).toMatch(/^escaped-[0-9a-f]{6}__[12]$/);
  });

  it('opens with the prompts the model was shown when they are known exactly, and says so when not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atif-'));
    dirs.push(dir);
    const task = getTask('debug_python_v1');
    if (task === undefined) throw new Error('no debug_python_v1');
    const { result_hash: _h, ...base } = crafted();
    const ours = { ...base, task_id: task.id, task_version: taskVersion(task) };
    const environment = { ...ours.environment, harness_version: HARNESS_VERSION };
    const print = async (r: Omit<ResultFile, 'result_hash'>) => {
      let printed = '';
      const file = await writeResultFile(dir, withHash(r));
      await exportAtifCommand(file, { trial: 2 }, { write: (x: string) => (printed += x) });
      return JSON.parse(printed) as ReturnType<typeof trialTrajectory>;
    };
    const known = await print({ ...ours, environment });
    expect(known.steps.map((x) => [x.step_id, x.source])).toEqual([
      [1, 'system'],
      [2, 'user'],
      [3, 'agent'],
      [4, 'user'],
      [5, 'agent'],
    ]);
    expect(known.steps[0]?.message).toBe(SYSTEM_PROMPT);
    expect(known.steps.slice(0, 3).map((x) => x.timestamp)).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.150Z',
    ]);
    expect(known.steps[1]?.message).toBe(task.prompt);
    expect(known.final_metrics.total_steps).toBe(5);
    expect(known.notes).not.toMatch(/not known/);
    // Another version of the task, or of agent-bench: the prompts may differ, so they are left out.
    for (const other of [
      { ...ours, environment, task_version: 'other' },
      { ...ours, environment: { ...environment, harness_version: '0.0.0-other' } },
    ]) {
      const unknown = await print(other);
      expect(unknown.steps[0]?.source).toBe('agent');
      expect(unknown.notes).toMatch(/prompts are not known here/);
    }
  });
});
