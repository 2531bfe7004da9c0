/**
 * Harbor tasks proven through the real engine, offline: each fixture's Dockerfile built on the
 * sandbox image (--base-image), its oracle and a do-nothing run verified by its own tests/test.sh.
 * The sound task validates, the broken oracle is reported unsound (validate exits 1), a partial
 * reward is kept as the score, and an image that cannot be had is one line naming --base-image.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harborEnvironmentSpec } from '../../src/catalogue/harbor/environment.js';
import { type HarborTask, loadHarborFolder } from '../../src/catalogue/harbor/load.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { ensureImage, openHarborEnvironment } from '../../src/sandbox/index.js';
import { GateFailedError, InfraError, UsageError } from '../../src/util/errors.js';
import { validateHarborFolders } from '../helpers/harbor-cli.js';
import { harborTrial, proveHarbor as proveHarborTasks } from '../helpers/harbor-prove.js';

const FIXTURES = join(import.meta.dirname, '../tasks/fixtures/harbor');
let base = '';
let scratch = '';

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-it-'));
}, 600_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A copy of a fixture (of `from`) with some files replaced. */
function variant(name: string, as: string, files: Record<string, string>, from = FIXTURES): string {
  const dir = join(scratch, as);
  cpSync(join(from, name), dir, { recursive: true });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text, { mode: 0o755 });
  return dir;
}

/**
 * partial-reward's first stage installs python3 with apt-get, which needs the network; offline it is
 * built on the sandbox image (python3 already there) with the rest of the task as it is.
 */
function offlinePartial(solve?: string): string {
  return variant('partial-reward', solve === undefined ? 'partial-reward' : 'partial-half', {
    'environment/Dockerfile': 'FROM python:3.12-slim\nWORKDIR /work\n',
    'task.toml':
      'version = "1.0"\n[verifier]\ntimeout_sec = 90\n[environment]\nmemory = "2G"\ncpus = 2\nallow_internet = false\n',
    ...(solve === undefined ? {} : { 'solution/solve.sh': solve }),
  });
}

/** The task's environment, its Dockerfile on `baseImage`. */
function environmentOf(task: HarborTask, baseImage?: string) {
  return openHarborEnvironment(harborEnvironmentSpec(task, baseImage));
}

describe('Harbor tasks in validate', () => {
  it('a sound task validates: its oracle earns 1, doing nothing 0', async () => {
    const rows = await proveHarborTasks([loadHarborFolder(join(FIXTURES, 'sound'))], {
      baseImage: base,
    });
    expect(rows).toEqual([
      { taskId: 'sound', run: 'oracle', kind: 'passed', detail: 'passes' },
      { taskId: 'sound', run: 'do-nothing', kind: 'passed', detail: 'scores 0' },
    ]);
  }, 600_000);

  it('a broken oracle is reported unsound, and validate exits 1', async () => {
    const rows = await proveHarborTasks([loadHarborFolder(join(FIXTURES, 'broken-oracle'))], {
      baseImage: base,
    });
    expect(rows[0]).toEqual({
      taskId: 'broken-oracle',
      run: 'oracle',
      kind: 'failed',
      detail: 'reference solution fails: reward missed (Harbor verifier tests/test.sh: reward 0)',
    });
    await expect(
      validateCommand({ tasks: 'all', tasksDir: [join(FIXTURES, 'broken-oracle')], baseImage: base }),
    ).rejects.toThrow(GateFailedError);
  }, 600_000);

  it('the whole command passes on a sound task', async () => {
    await expect(
      validateCommand({ tasks: 'all', tasksDir: [join(FIXTURES, 'sound')], baseImage: base }),
    ).resolves.toBeUndefined();
  }, 600_000);

  it('a partial reward is kept as the score (reward.json), and is no pass', async () => {
    const full = loadHarborFolder(offlinePartial());
    expect((await proveHarborTasks([full], { baseImage: base })).map((r) => r.kind)).toEqual([
      'passed',
      'passed',
    ]);
    const half = loadHarborFolder(offlinePartial("#!/bin/bash\nprintf '1\\n2\\n' > /work/numbers.txt\n"));
    const trial = await harborTrial(half, 'oracle', { baseImage: base });
    expect(trial.score).toBe(0.5);
    expect(trial.rewards).toEqual({ reward: 0.5, lines_right: 2 });
    const rows = await proveHarborTasks([half], { baseImage: base });
    expect(rows[0]?.detail).toBe(
      'reference solution fails: reward missed (Harbor verifier tests/test.sh: reward 0.5 (reward.json: reward 0.5, lines_right 2))',
    );
  }, 600_000);

  it('builds once: the image is cached under the content hash', async () => {
    const task = loadHarborFolder(join(FIXTURES, 'sound'));
    const first = await environmentOf(task, base).taskImage();
    const said: string[] = [];
    const again = await environmentOf(task, base).taskImage((l) => said.push(l));
    expect(again).toBe(first);
    expect(said).toEqual([]);
  }, 600_000);

  it('builds without a network when the task does not allow internet', async () => {
    const dir = variant('sound', 'no-net-build', {
      'environment/Dockerfile': 'FROM python:3.12-slim\nRUN ! test -e /sys/class/net/eth0\nWORKDIR /app\n',
    });
    await expect(environmentOf(loadHarborFolder(dir), base).taskImage()).resolves.toMatch(
      /^agent-bench-harbor:no-net-build-/,
    );
  }, 600_000);

  it('the oracle runs in the WORKDIR, before tests/ is in the container, without a network', async () => {
    const dir = variant('sound', 'no-tests-yet', {
      'solution/solve.sh':
        '#!/bin/bash\n[ "$PWD" = /app ] && [ ! -e /tests ] && [ ! -e /sys/class/net/eth0 ] && echo \'hello, harbor\' > greeting.txt\n',
    });
    const rows = await proveHarborTasks([loadHarborFolder(dir)], { baseImage: base });
    expect(rows[0]).toEqual({
      taskId: 'no-tests-yet',
      run: 'oracle',
      kind: 'passed',
      detail: 'passes',
    });
  }, 600_000);

  it('a build past task.toml build_timeout_sec is stopped, and says so', async () => {
    const dir = variant('sound', 'slow-build', {
      'environment/Dockerfile': 'FROM python:3.12-slim\nRUN sleep 60\nWORKDIR /app\n',
      'task.toml': 'version = "1.0"\n[environment]\nbuild_timeout_sec = 2\nallow_internet = false\n',
    });
    const started = Date.now();
    await expect(environmentOf(loadHarborFolder(dir), base).taskImage()).rejects.toThrow(
      new InfraError(
        'slow-build: building environment/Dockerfile took longer than 2 s (task.toml environment.build_timeout_sec)',
      ),
    );
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 600_000);

  it('a verifier that writes no reward fails the row with what went wrong', async () => {
    const dir = variant('sound', 'no-reward', { 'tests/test.sh': '#!/bin/bash\necho checked\n' });
    const rows = await proveHarborTasks([loadHarborFolder(dir)], { baseImage: base });
    expect(rows[0]?.kind).toBe('failed');
    expect(rows[0]?.detail).toBe(
      'reference solution unproven: Harbor verifier tests/test.sh: no reward: the verifier wrote neither /logs/verifier/reward.txt nor reward.json (checked)',
    );
  }, 600_000);

  it('a base image that cannot be had is one line naming --base-image', async () => {
    const dir = variant('sound', 'unpullable', {
      'environment/Dockerfile': 'FROM agent-bench-test/no-such-image:0\nWORKDIR /app\n',
    });
    const task = loadHarborFolder(dir);
    const err = await environmentOf(task)
      .taskImage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InfraError);
    expect((err as Error).message).toMatch(
      /^unpullable: its base image agent-bench-test\/no-such-image:0 cannot be pulled .*--base-image IMAGE/,
    );
    expect((err as Error).message).not.toContain('\n');
    await expect(environmentOf(task, 'agent-bench-test/absent:0').taskImage()).rejects.toThrow(
      new UsageError('--base-image agent-bench-test/absent:0: no such image on this machine'),
    );
  }, 600_000);
});

/** Harbor tasks as published (#23): BuildKit Dockerfiles, all of solution/, output kept. */
describe('Harbor tasks as published, in validate', () => {
  const PARITY = join(import.meta.dirname, 'fixtures');

  it('a Dockerfile with heredocs (RUN, COPY, <<-, a shebang), # syntax= and a cache mount builds, and its oracle passes', async () => {
    const rows = await proveHarborTasks([loadHarborFolder(join(PARITY, 'harbor-heredoc'))], {
      baseImage: base,
    });
    expect(rows.map((r) => [r.run, r.kind, r.detail, r.output ?? ''])).toEqual([
      ['oracle', 'passed', 'passes', ''],
      ['do-nothing', 'passed', 'scores 0', ''],
    ]);
  }, 600_000);

  it('the oracle gets all of solution/ (a HARBOR_SOLVE line and all), as root, in the WORKDIR the engine built', async () => {
    // A relative WORKDIR resolves against the base's own (the sandbox image's /workspace), which
    // the Dockerfile's text cannot tell: the engine's word is taken.
    const dir = variant(
      'harbor-solution-files',
      'solution-files-relative',
      {
        'environment/Dockerfile': 'FROM python:3.12-slim\nWORKDIR task\n',
      },
      PARITY,
    );
    const task = loadHarborFolder(dir);
    expect(task.dockerfile?.facts.workdir).toBe('/task');
    const rows = await proveHarborTasks([task], { baseImage: base });
    expect(rows.map((r) => [r.run, r.kind, r.detail])).toEqual([
      ['oracle', 'passed', 'passes'],
      ['do-nothing', 'passed', 'scores 0'],
    ]);
    const trial = await harborTrial(task, 'oracle', { baseImage: base });
    expect(trial.turn_logs[0]?.tool_calls[0]?.stdout.trim()).toBe('solved in /workspace/task');
  }, 600_000);

  it('a failing verifier’s output and its offline signature are in the row', async () => {
    const dir = variant('sound', 'offline-verifier', {
      'tests/test.sh':
        '#!/bin/bash\nmkdir -p /logs/verifier\necho "collecting the tests"\ncurl -fsSL https://example.com/expected.json -o /tmp/expected.json\necho 0 > /logs/verifier/reward.txt\nexit 6\n',
    });
    const rows = await proveHarborTasks([loadHarborFolder(dir)], { baseImage: base });
    expect(rows[0]).toMatchObject({
      run: 'oracle',
      kind: 'failed',
      detail:
        'reference solution fails: reward missed (Harbor verifier tests/test.sh: reward 0 (no network: curl could not fetch https://example.com/expected.json))',
    });
    expect(rows[0]?.output).toMatch(
      /^tests\/test\.sh printed \(exit 6; its end\):\ncollecting the tests\ncurl: no network in this sandbox: https:\/\/example\.com\/expected\.json not fetched/,
    );
    // Validate shows it under the failed row.
    const { out, exitCode } = await validateHarborFolders([dir], { baseImage: base, taskNames: [] });
    expect(exitCode).toBe(1);
    expect(out).toMatch(
      /oracle\s+FAIL\s+reference solution fails: reward missed \(Harbor verifier tests\/test\.sh: reward 0 \(no network: curl .*\n {4}\| tests\/test\.sh printed/,
    );
    expect(out).toContain('    | collecting the tests\n');
  }, 600_000);

  it('a Dockerfile step that fails is the task’s problem: one line naming the step and its output’s end', async () => {
    const dir = variant('sound', 'failing-step', {
      'environment/Dockerfile':
        "FROM python:3.12-slim\nWORKDIR /app\nRUN echo preparing && echo 'E: Unable to locate package jq' >&2 && exit 100\n",
    });
    const err = await environmentOf(loadHarborFolder(dir), base)
      .taskImage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(
      /^failing-step: environment\/Dockerfile failed to build at Step 3\/\d \(RUN echo preparing .*\): The command .* returned a non-zero code: 100; its output ended: .*E: Unable to locate package jq/,
    );
    // One line, without the builder's colour codes.
    expect((err as Error).message).not.toContain('\n');
    expect((err as Error).message).not.toContain('\u001b[');
  }, 600_000);

  it('BuildKit syntax it does not translate is refused before building, by name and line', async () => {
    const dir = variant('sound', 'secret-mount', {
      'environment/Dockerfile':
        'FROM python:3.12-slim\nRUN --mount=type=secret,id=token cat /run/secrets/token\n',
    });
    await expect(environmentOf(loadHarborFolder(dir), base).taskImage()).rejects.toThrow(
      new UsageError(
        "secret-mount: environment/Dockerfile line 2: RUN --mount=type=secret; agent-bench builds with the engine's classic builder, which lacks it",
      ),
    );
  }, 600_000);
});
