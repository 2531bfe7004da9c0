/**
 * Harbor task folders (test/tasks/fixtures/harbor/: a sound task, one with a broken oracle, one
 * with a partial reward) read as Harbor defines them: task.toml's timeouts and resources, the
 * Dockerfile's working directory and base image, the build context's hash, the reward files. Running
 * them with a model is not done yet: run and ladder say so in one line (validate proves them:
 * test/integration/harbor-validate.test.ts).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dockerfileFacts, onBaseImage } from '../../../src/catalogue/harbor/dockerfile.js';
import { loadHarborFolder } from '../../../src/catalogue/harbor/load.js';
import type { UnusableHarborTask } from '../../../src/catalogue/harbor/unusable.js';
import { rewardPasses } from '../../../src/catalogue/harbor/verify.js';
import { loadTasks } from '../../../src/catalogue/load-tasks.js';
import { listCommand } from '../../../src/cli/commands/list.js';
import { selectWithSkills } from '../../../src/cli/select-tasks.js';
import { readReward } from '../../../src/sandbox/harbor/reward.js';
import { UsageError } from '../../../src/util/errors.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'harbor');
const copies: string[] = [];

afterEach(() => {
  for (const c of copies.splice(0)) rmSync(c, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** A copy of a fixture, to break. */
function copyOf(name: string): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-bench-harbor-'));
  copies.push(root);
  cpSync(join(FIXTURES, name), join(root, name), { recursive: true });
  return join(root, name);
}

describe('a Harbor task folder', () => {
  it('is read as Harbor defines it', () => {
    const t = loadHarborFolder(join(FIXTURES, 'sound'));
    expect(t).toMatchObject({
      id: 'sound',
      instruction: 'Create a file /app/greeting.txt that contains exactly the line `hello, harbor`.\n',
      verifier: { timeoutSec: 60, env: {} },
      agentTimeoutSec: 120,
      environment: { buildTimeoutSec: 300, dockerImage: null, cpus: 1, memoryMb: 1024, allowInternet: false },
      tests: ['test.sh'],
      hasSolution: true,
      solution: ['solve.sh'],
    });
    expect(t.dockerfile?.facts).toEqual({ baseImage: 'python:3.12-slim', workdir: '/app' });
    expect(t.contextDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes Harbor’s defaults and older spellings (memory = "2G"), multi-stage builds and JSON WORKDIR', () => {
    const t = loadHarborFolder(join(FIXTURES, 'partial-reward'));
    expect(t.environment).toEqual({
      buildTimeoutSec: 600,
      dockerImage: null,
      cpus: 2,
      memoryMb: 2048,
      allowInternet: true,
      workdir: null,
      env: {},
      mcpServers: [],
    });
    expect(t.dockerfile?.facts).toEqual({ baseImage: 'base', workdir: '/work' });
  });

  it('the build context’s hash changes with what is built, not with the tests or the instruction', () => {
    const dir = copyOf('sound');
    const before = loadHarborFolder(dir).contextDigest;
    writeFileSync(join(dir, 'tests/test.sh'), '#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n');
    writeFileSync(join(dir, 'instruction.md'), 'Another instruction.\n');
    expect(loadHarborFolder(dir).contextDigest).toBe(before);
    writeFileSync(join(dir, 'environment/notes.txt'), 'changed\n');
    expect(loadHarborFolder(dir).contextDigest).not.toBe(before);
  });

  it('a broken one is one line per problem, naming the file', () => {
    const dir = copyOf('sound');
    rmSync(join(dir, 'tests/test.sh'));
    rmSync(join(dir, 'environment/Dockerfile'));
    writeFileSync(join(dir, 'task.toml'), 'version = "1.0"\n[agent]\ntimeout_sec = "long"\n');
    let lines: string[] = [];
    try {
      loadHarborFolder(dir);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      lines = (err as Error).message.split('\n');
    }
    expect(lines).toEqual([
      expect.stringMatching(/\/sound\/tests\/test\.sh: not found: the verifier Harbor runs$/),
      expect.stringMatching(/\/sound\/task\.toml: agent\.timeout_sec: expected number, received string$/),
    ]);
  });

  it('is found under --tasks-dir beside task folders of ours, and told apart from them', () => {
    const found = loadTasks([FIXTURES], '--tasks-dir');
    expect(found.tasks).toEqual([]);
    expect(found.harbor.map((h) => h.id)).toEqual(['broken-oracle', 'partial-reward', 'sound']);
  });

  it('list shows it; run and ladder select it as a task of its own, judged by its verifier', async () => {
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    await listCommand({ tasksDir: [join(FIXTURES, 'sound')] });
    expect(out).toMatch(
      /^sound +harbor {3}agent 120 s, verifier 60 s {2}image python:3\.12-slim, workdir \/app {2}1 cpu, 1024 MiB, internet off {2}oracle solution\/solve\.sh$/m,
    );
    expect(out).toMatch(/from: .*\/harbor\/sound \(Harbor task\)$/m);
    const [task, ...others] = selectWithSkills({
      tasks: 'all',
      skillDirs: [],
      skillAb: false,
      tasksDirs: [join(FIXTURES, 'sound')],
    });
    expect(others).toEqual([]);
    expect(task?.id).toBe('sound');
    expect(task?.prompt).toMatch(
      /^Create a file \/app\/greeting\.txt .*\n\n\(\/app is your working directory, \/workspace: the same folder\.\)$/s,
    );
    expect(task?.flags.map((f) => f.id)).toEqual(['reward']);
    expect(task?.kind === 'harbor' ? task.environment.limits : null).toEqual({ cpus: 1, memory_mb: 1024 });
    // The oracle model's one call runs as Harbor's oracle (its reference agent), never as the agent.
    expect(task?.referenceSolution).toEqual([
      { calls: [{ name: 'execute_command', arguments: { command: 'bash /solution/solve.sh' } }] },
      { text: 'done', calls: [] },
    ]);
    expect(task?.kind === 'harbor' ? task.referenceAgent?.command : null).toBe('bash /solution/solve.sh');
    // validate proves it as it proves any task (only one that cannot run is collected apart), and
    // selects none of the built-in tasks beside it.
    const unusable: UnusableHarborTask[] = [];
    const tasks = selectWithSkills({
      tasks: 'all',
      skillDirs: [],
      skillAb: false,
      tasksDirs: [join(FIXTURES, 'sound')],
      harbor: unusable,
    });
    expect(tasks.map((t) => [t.id, t.kind])).toEqual([['sound', 'harbor']]);
    expect(unusable).toEqual([]);
  });

  it('validate --tasks picks Harbor tasks by id (or glob) like any task, and only those', () => {
    const select = (tasks: string) =>
      selectWithSkills({ tasks, skillDirs: [], skillAb: false, tasksDirs: [FIXTURES], harbor: [] }).map(
        (t) => t.id,
      );
    expect(select('sound')).toEqual(['sound']);
    expect(select('partial-*,debug_js_v1')).toEqual(['partial-reward', 'debug_js_v1']);
    // A native task alone proves no Harbor task.
    expect(select('debug_js_v1')).toEqual(['debug_js_v1']);
    expect(() => select('nope')).toThrow(/unknown task "nope"; known tasks: .*sound/);
  });
});

describe('the Dockerfile', () => {
  it('the working directory is the last stage’s last WORKDIR, resolved as Docker does', () => {
    expect(dockerfileFacts('FROM a\nWORKDIR /x\nFROM b\n')).toEqual({ baseImage: 'b', workdir: '/' });
    expect(dockerfileFacts('FROM a\nWORKDIR /x\nWORKDIR y/../z\n')?.workdir).toBe('/x/z');
    expect(dockerfileFacts('# syntax=docker/dockerfile:1\nfrom img:1 as build\nworkdir "/q r"\n')).toEqual({
      baseImage: 'img:1',
      workdir: '/q r',
    });
    expect(dockerfileFacts('FROM \\\n  img:2\nRUN true \\\n  # a comment\n  && true\n')?.baseImage).toBe(
      'img:2',
    );
    expect(dockerfileFacts('RUN true\n')).toBeNull();
  });

  it('--base-image replaces each FROM that names an image, never an earlier stage', () => {
    const text = 'FROM --platform=linux/amd64 debian:12 AS base\nRUN x\nFROM base\nFROM python:3 AS other\n';
    expect(onBaseImage(text, 'agent-bench:abc')).toBe(
      'FROM --platform=linux/amd64 agent-bench:abc AS base\nRUN x\nFROM base\nFROM agent-bench:abc AS other\n',
    );
    expect(onBaseImage('FROM R\n', 'img')).toBe('FROM img\n');
  });
});

describe('the reward', () => {
  it('reward.txt first, then reward.json; 1 passes and a partial reward is kept as the score', () => {
    expect(readReward('1\n', '{"reward": 0}')).toEqual({ ok: true, reward: 1, metrics: {} });
    expect(readReward(null, '{"reward": 0.75, "lines_right": 3}')).toEqual({
      ok: true,
      reward: 0.75,
      metrics: { reward: 0.75, lines_right: 3 },
    });
    expect(readReward(null, '{"accuracy": 0.5}')).toMatchObject({ ok: true, reward: 0.5 });
    expect(rewardPasses(1)).toBe(true);
    expect(rewardPasses(0.75)).toBe(false);
  });

  it('a reward that is missing or cannot be read is the task’s problem, said as such', () => {
    expect(readReward(null, null)).toEqual({
      ok: false,
      problem: 'the verifier wrote neither /logs/verifier/reward.txt nor reward.json',
    });
    expect(readReward('pass', null)).toEqual({ ok: false, problem: 'reward.txt holds "pass", not a number' });
    expect(readReward(null, '{}')).toEqual({ ok: false, problem: 'reward.json has no metric' });
    expect(readReward(null, '{"reward": "1"}')).toEqual({
      ok: false,
      problem: 'reward.json: reward is not a number',
    });
    expect(readReward(null, '[1]')).toMatchObject({ ok: false });
  });
});
