/**
 * Harbor tasks as published (issue #23): the current task.toml (`schema_version` without `version`,
 * `[environment] workdir` and `env`, keys agent-bench does not honour named once), multi-step tasks
 * refused by name, reward.json's named metrics, and one bad task in a folder that stops nothing
 * else. The task.toml texts are Harbor's own cookbook recipes (test/tasks/fixtures/harbor-cookbook/,
 * its README has their provenance), copied unchanged or cut down where a test says so.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harborAsTask } from '../../../src/catalogue/harbor/as-task.js';
import { harborEnvironmentSpec } from '../../../src/catalogue/harbor/environment.js';
import { harborWorkdir, loadHarborFolder, MULTI_STEP_REFUSAL } from '../../../src/catalogue/harbor/load.js';
import type { UnusableHarborTask } from '../../../src/catalogue/harbor/unusable.js';
import { harborVerdict } from '../../../src/catalogue/harbor/verify.js';
import { loadTasks } from '../../../src/catalogue/load-tasks.js';
import { listCommand } from '../../../src/cli/commands/list.js';
import { selectWithSkills } from '../../../src/cli/select-tasks.js';
import { createScriptedModel } from '../../../src/models/scripted.js';
import { buildAxes } from '../../../src/report/axes-ops.js';
import { axesTables } from '../../../src/report/axes-tables.js';
import type { ResultFile } from '../../../src/results/result-file.js';
import { parseResultFile, withHash } from '../../../src/results/store.js';
import type { TrialRecord } from '../../../src/results/trial.js';
import { readReward } from '../../../src/sandbox/harbor/reward.js';
import { verdictOf } from '../../../src/sandbox/harbor/verifier.js';
import type { Task } from '../../../src/tasks/types.js';
import { judgedTrial } from '../../../src/trial/trial-record.js';
import { UsageError } from '../../../src/util/errors.js';
import { memoryEnvironment, SAY_DONE } from '../../helpers/memory-run.js';
import { memorySandbox } from '../../helpers/memory-sandbox.js';
import { PASS, result } from '../../helpers/result-builder.js';
import { runSettings } from '../../helpers/run-settings.js';
import { runInMemory } from '../../run/task-runs.js';
import { rewardFile, supervisorReport } from '../../sandbox/harbor/reports.js';

const COOKBOOK = join(import.meta.dirname, '..', 'fixtures', 'harbor-cookbook');
const OURS = join(import.meta.dirname, '..', 'fixtures', 'harbor');
const roots: string[] = [];

afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** An empty folder to put task folders in. */
function scratch(): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-bench-harbor-pub-'));
  roots.push(root);
  return root;
}

/** The multi-step recipe's task.toml without its [[steps]] (everything before the first one): the current schema of a single-step task. */
function singleStepToml(): string {
  const text = readFileSync(join(COOKBOOK, 'multi-step', 'task.toml'), 'utf8');
  return text.slice(0, text.indexOf('# ----'));
}

/** Our sound fixture with another task.toml, in a folder of its own. */
function soundWith(toml: string, root = scratch(), name = 'sound'): string {
  const dir = join(root, name);
  cpSync(join(OURS, 'sound'), dir, { recursive: true });
  writeFileSync(join(dir, 'task.toml'), toml);
  return dir;
}

function problemOf(dir: string): string {
  try {
    loadHarborFolder(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('it loaded');
}

describe('the current task.toml', () => {
  it('schema_version = "1.1" without version loads, and the version given is kept under either name', () => {
    const t = loadHarborFolder(soundWith(singleStepToml()));
    expect(t.schemaVersion).toBe('1.1');
    expect(loadHarborFolder(join(COOKBOOK, 'multi-reward')).schemaVersion).toBe('1.0');
    // Neither is required, as in Harbor.
    expect(loadHarborFolder(soundWith('[agent]\ntimeout_sec = 60\n')).schemaVersion).toBeNull();
  });

  it('[environment] workdir wins over the Dockerfile’s WORKDIR: the agent’s workspace, where the scripts run', () => {
    const toml = `${singleStepToml().replace('workdir = "/app"', 'workdir = "/srv/task"')}`;
    const t = loadHarborFolder(soundWith(toml));
    expect(t.dockerfile?.facts.workdir).toBe('/app');
    expect(harborWorkdir(t)).toBe('/srv/task');
    const spec = harborEnvironmentSpec(t);
    expect(spec.workdir).toBe('/srv/task');
    expect(spec.declaredWorkdir).toBe('/srv/task');
    expect(harborAsTask(t).prompt).toMatch(
      /\(\/srv\/task is your working directory, \/workspace: the same folder\.\)$/,
    );
    // Without one, the image's own WORKDIR stays the run image's word.
    expect(harborEnvironmentSpec(loadHarborFolder(join(OURS, 'sound'))).declaredWorkdir).toBeUndefined();
    expect(problemOf(soundWith('[environment]\nworkdir = "app"\n'))).toMatch(
      /task\.toml: environment\.workdir: must be an absolute path$/,
    );
  });

  it('[environment.env] reaches the verifier and the oracle under their own variables, ${NAME:-default} from the host', () => {
    vi.stubEnv('AB_TEST_HOST_VAR', 'from-host');
    const toml = `${singleStepToml()}HOSTED = "\${AB_TEST_HOST_VAR}"\nDEFAULTED = "\${AB_TEST_UNSET_VAR:-fallback}"\n\n[verifier.env]\nGREETER_PROJECT = "verifier's own"\n\n[solution.env]\nONLY_ORACLE = "1"\n`;
    const t = loadHarborFolder(soundWith(toml));
    expect(t.environment.env).toEqual({
      GREETER_PROJECT: 'hello-multi-step-full',
      HOSTED: 'from-host',
      DEFAULTED: 'fallback',
    });
    expect(t.verifier.env).toEqual({ ...t.environment.env, GREETER_PROJECT: "verifier's own" });
    expect(t.oracleEnv).toEqual({ ...t.environment.env, ONLY_ORACLE: '1' });
    const spec = harborEnvironmentSpec(t);
    expect(spec.verifier.env).toEqual(t.verifier.env);
    expect(spec.oracle.env).toEqual(t.oracleEnv);
    expect(problemOf(soundWith('[environment.env]\nKEY = "${AB_TEST_UNSET_VAR}"\n'))).toMatch(
      /task\.toml: environment\.env\.KEY: \$\{AB_TEST_UNSET_VAR\} not set on this machine/,
    );
  });

  it('keys agent-bench does not honour are named once, in one warning line per task', () => {
    const found = loadTasks([COOKBOOK], '--tasks-dir');
    expect(found.harbor.map((h) => h.id)).toEqual(['multi-reward', 'simple-task', 'skills']);
    expect(found.harbor.find((h) => h.id === 'skills')?.ignoredKeys).toEqual([
      'environment.storage_mb',
      'environment.skills_dir',
    ]);
    expect(found.warnings).toEqual([
      expect.stringMatching(
        /^warning: .*\/multi-reward\/task\.toml: agent-bench ignores environment\.storage_mb$/,
      ),
      expect.stringMatching(
        /^warning: .*\/simple-task\/task\.toml: agent-bench ignores environment\.storage_mb$/,
      ),
      expect.stringMatching(
        /^warning: .*\/skills\/task\.toml: agent-bench ignores environment\.storage_mb, environment\.skills_dir$/,
      ),
    ]);
    // Set to nothing (gpus = 0, mcp_servers = []), a key asks for nothing; env tables are half honoured and say so.
    const t = loadHarborFolder(soundWith(singleStepToml()));
    expect(t.ignoredKeys).toEqual(['artifacts', 'environment.storage_mb']);
    const [line] = loadTasks([join(t.dir, '..')], '--tasks-dir').warnings;
    expect(line).toMatch(
      /agent-bench ignores artifacts, environment\.storage_mb, environment\.env for the model’s commands \(tests\/test\.sh and solve\.sh get it\)$/,
    );
  });

  it('a multi-step task ([[steps]], steps/<name>/) is refused by name, in one line', () => {
    const message = problemOf(join(COOKBOOK, 'multi-step'));
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/\/multi-step: multi-step Harbor tasks \(\[\[steps\]\]\) are not supported yet$/),
    ]);
    expect(MULTI_STEP_REFUSAL).toBe('multi-step Harbor tasks ([[steps]]) are not supported yet');
    // Either sign alone is enough: the table without the folders, the folders without the table.
    expect(problemOf(soundWith(`${singleStepToml()}[[steps]]\nname = "one"\n`))).toContain(
      MULTI_STEP_REFUSAL,
    );
    const dir = soundWith(singleStepToml());
    mkdirSync(join(dir, 'steps', 'one'), { recursive: true });
    writeFileSync(join(dir, 'steps', 'one', 'instruction.md'), 'Step one.\n');
    expect(problemOf(dir)).toContain(MULTI_STEP_REFUSAL);
  });
});

describe('named rewards (reward.json)', () => {
  /** The verdict on a model trial whose verifier wrote this reward.json. */
  const verdictOn = (json: string) =>
    harborVerdict(
      loadHarborFolder(join(COOKBOOK, 'multi-reward')),
      verdictOf(supervisorReport({ rewardTxt: null, rewardJson: rewardFile(json), output: 'ran\n' }), 120),
    );

  it('the cookbook’s {correctness, performance}: every metric kept, the score their mean since Harbor declares no primary', () => {
    expect(readReward(null, '{"correctness": 1, "performance": 0}')).toEqual({
      ok: true,
      reward: 0.5,
      metrics: { correctness: 1, performance: 0 },
      mean: true,
    });
    const half = verdictOn('{"correctness": 1, "performance": 0}');
    expect(half).toMatchObject({ score: 0.5, passed: false, rewards: { correctness: 1, performance: 0 } });
    expect(half.flags.reward?.detail).toBe(
      'Harbor verifier tests/test.sh: reward 0.5 (the mean of correctness 1, performance 0: reward.json names no reward metric and Harbor has no key for a primary one); run without network, though task.toml allows internet',
    );
    expect(verdictOn('{"correctness": 1, "performance": 1}')).toMatchObject({ score: 1, passed: true });
  });

  it('the metric named reward is the score when there is one, the others kept beside it', () => {
    expect(readReward(null, '{"reward": 1, "style": 0.2}')).toEqual({
      ok: true,
      reward: 1,
      metrics: { reward: 1, style: 0.2 },
    });
    expect(verdictOn('{"reward": 1, "style": 0.2}')).toMatchObject({
      passed: true,
      rewards: { reward: 1, style: 0.2 },
    });
    // reward.txt has no names: nothing to keep.
    expect(
      harborVerdict(
        loadHarborFolder(join(OURS, 'sound')),
        verdictOf(supervisorReport({ rewardTxt: rewardFile('1\n'), rewardJson: null, output: '' }), 60),
      ).rewards,
    ).toBeUndefined();
  });

  it('are kept in the trial record (schema 2.6) and shown by report axes', () => {
    const verdict = verdictOn('{"correctness": 1, "performance": 0}');
    const trial = judgedTrial({
      index: 0,
      startedAt: '2026-01-01T00:00:00.000Z',
      turnLogs: [],
      end: 'final_answer',
      elapsedSec: 1,
      harnessSec: 1,
      finalAnswer: 'done',
      verdict: { ...verdict, tamperViolations: [] },
    });
    expect(trial.rewards).toEqual({ correctness: 1, performance: 0 });
    const file = withTrial(result({ task: 'multi-reward', model: 'm', trials: [PASS] }), {
      rewards: { correctness: 1, performance: 0 },
    });
    const parsed = parseResultFile(JSON.stringify(file));
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.result.trials[0]?.rewards).toEqual({ correctness: 1, performance: 0 });
    const table = axesTables(buildAxes([parsed.result])).find((t) => t.id === 'axes-rewards');
    expect(table?.rows.map((r) => r.cells.map((c) => (c.kind === 'text' ? c.text : c.kind)))).toEqual([
      ['model', 'clean', 'multi-reward', 'correctness', '1', '1'],
      ['model', 'clean', 'multi-reward', 'performance', '0', '1'],
    ]);
    // No named rewards, no table.
    expect(
      axesTables(buildAxes([result({ task: 'a', model: 'm', trials: [PASS] })])).map((t) => t.id),
    ).not.toContain('axes-rewards');
  });
});

/** The file with its first trial changed, hashed anew. */
function withTrial(file: ResultFile, change: Partial<TrialRecord>): ResultFile {
  const { result_hash: _, schema_version: __, trials, ...rest } = file;
  const [first, ...others] = trials;
  if (first === undefined) throw new Error('no trial');
  return withHash({ ...rest, trials: [{ ...first, ...change }, ...others] });
}

describe('one bad Harbor task in a folder', () => {
  /** A folder with our sound task and a copy of it whose task.toml is broken. */
  function mixedFolder(): string {
    const root = scratch();
    cpSync(join(OURS, 'sound'), join(root, 'good'), { recursive: true });
    soundWith('version = "1.0"\n[agent]\ntimeout_sec = "long"\n', root, 'bad');
    cpSync(join(COOKBOOK, 'multi-step'), join(root, 'steps'), { recursive: true });
    return root;
  }

  it('is read apart from the rest: the others load', () => {
    const found = loadTasks([mixedFolder()], '--tasks-dir');
    expect(found.harbor.map((h) => h.id)).toEqual(['good']);
    expect(found.unusableHarbor.map((u) => [u.id, u.problem])).toEqual([
      [
        'bad',
        expect.stringMatching(/\/bad\/task\.toml: agent\.timeout_sec: expected number, received string$/),
      ],
      [
        'steps',
        expect.stringMatching(/\/steps: multi-step Harbor tasks \(\[\[steps\]\]\) are not supported yet$/),
      ],
    ]);
  });

  it('list lists the rest, and it with why', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await listCommand({ tasksDir: [mixedFolder()] });
    expect(out).toMatch(/^good +harbor {3}agent 120 s/m);
    expect(out).toMatch(
      /^bad +harbor {3}cannot run: .*agent\.timeout_sec: expected number, received string$/m,
    );
    expect(out).toMatch(/^steps +harbor {3}cannot run: .*multi-step Harbor tasks/m);
  });

  it('validate proves the rest and keeps it apart, for a row of its own', () => {
    const unusable: UnusableHarborTask[] = [];
    const rest = selectWithSkills({
      tasks: 'all',
      skillDirs: [],
      skillAb: false,
      tasksDirs: [mixedFolder()],
      harbor: unusable,
    });
    expect(rest.map((t) => t.id)).toEqual(['good']);
    expect(unusable.map((h) => [h.id, h.problem])).toEqual([
      ['bad', expect.stringMatching(/agent\.timeout_sec: expected number/)],
      ['steps', expect.stringContaining(MULTI_STEP_REFUSAL)],
    ]);
  });

  it('a run records an error result for it (never the model’s failure) and runs the others', async () => {
    const selected = selectWithSkills({
      tasks: 'all',
      skillDirs: [],
      skillAb: false,
      tasksDirs: [mixedFolder()],
    });
    const bad = selected.find((t) => t.id === 'bad');
    if (bad === undefined) throw new Error('bad not selected');
    const dir = scratch();
    const tasks: Task[] = [bad, SAY_DONE];
    const results = await runInMemory({
      tasks,
      parallel: 1,
      options: (task) => ({
        runId: 'run-1',
        task,
        taskVersion: 'v1',
        modelName: 'm',
        makeModel: () => createScriptedModel('m', [{ text: 'done', calls: [] }]),
        // As the run's sandbox pool does: a Harbor task's sandbox starts from its image.
        openSandbox: async () => {
          if (task.kind === 'harbor') await task.environment.image?.(() => {});
          return memorySandbox();
        },
        settings: runSettings({ k: 3 }),
        resultsDir: dir,
        environment: memoryEnvironment('m'),
      }),
    });
    const [ofBad, ofGood] = results;
    expect(ofBad?.status).toBe('error');
    expect(ofBad?.trials.every((t) => t.status === 'error' && t.error?.kind === 'harness')).toBe(true);
    expect(ofBad?.trials[0]?.failure_reason).toMatch(
      /^harness_error: Harbor task bad cannot run: .*agent\.timeout_sec: expected number, received string$/,
    );
    expect(ofGood?.status).toBe('complete');
    expect(ofGood?.trials.map((t) => t.status)).toEqual(['passed', 'passed', 'passed']);
  });
});
