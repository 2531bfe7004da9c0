/**
 * A Harbor task on an image with nothing of agent-bench in it, as published (no --base-image): a
 * static busybox imported as a root filesystem (no python, no bash, no glibc, no /etc/passwd).
 * The harness's tools come from the tools volume; validate proves the task (oracle 1, doing
 * nothing 0); a scripted model's commands run, are traced, and are scored by test.sh; a model that
 * does nothing scores 0. test.sh uses busybox's programs only.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHarborFolder } from '../../src/catalogue/harbor/load.js';
import { docker } from '../../src/sandbox/docker/engine.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { runHarborCli } from '../helpers/harbor-cli.js';
import { harborTrial, proveHarbor as proveHarborTasks } from '../helpers/harbor-prove.js';
import { type ScriptedReply, type ScriptedServer, startScriptedServer } from '../helpers/scripted-server.js';

const exec = promisify(execFile);

let scratch = '';
let task = '';
let server: ScriptedServer;

const SCRIPTS: Record<string, ScriptedReply[]> = {
  writer: [
    {
      calls: [
        {
          name: 'execute_command',
          arguments: { command: 'cat start.txt && echo portable > answer.txt && ls' },
        },
      ],
    },
    // The image has no python, and the harness's own is not the agent's.
    {
      calls: [
        { name: 'execute_command', arguments: { command: 'python3 -V; /opt/agent-bench/bin/python3 -V' } },
      ],
    },
    { text: 'done' },
  ],
  idle: [{ text: 'I will not do anything.' }],
};
// A server's script is played once: the second task's model gets its own copy.
SCRIPTS['tb2-writer'] = SCRIPTS.writer ?? [];

/**
 * Debian's static busybox as the whole image, tagged by the package's content (imported once).
 * The package comes from the host's apt (`apt-get download`, which needs no root for the download).
 */
async function busyboxImage(dir: string): Promise<string> {
  await exec('apt-get', ['download', 'busybox-static'], { cwd: dir });
  const deb = (await exec('sh', ['-c', 'ls busybox-static_*.deb'], { cwd: dir })).stdout.trim();
  const tag = `agent-bench-test-busybox:${createHash('sha256')
    .update(readFileSync(join(dir, deb)))
    .digest('hex')
    .slice(0, 16)}`;
  try {
    await docker().getImage(tag).inspect();
    return tag;
  } catch {
    // Not imported yet.
  }
  await exec('dpkg-deb', ['-x', deb, 'pkg'], { cwd: dir });
  const root = join(dir, 'root');
  mkdirSync(join(root, 'bin'), { recursive: true });
  writeFileSync(join(root, 'bin/busybox'), readFileSync(join(dir, 'pkg/bin/busybox')));
  chmodSync(join(root, 'bin/busybox'), 0o755);
  const applets = (await exec(join(root, 'bin/busybox'), ['--list'])).stdout.split('\n').filter(Boolean);
  for (const applet of applets) if (applet !== 'busybox') symlinkSync('busybox', join(root, 'bin', applet));
  await exec('sh', ['-c', `tar -C root -c . | docker import - ${tag}`], { cwd: dir });
  return tag;
}

/** A task whose Dockerfile is FROM `image`, and whose scripts are busybox sh. */
function writeTask(dir: string, image: string): void {
  const file = (rel: string, text: string, mode = 0o644): void => {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text, { mode });
  };
  file(
    'task.toml',
    'version = "1.0"\n[verifier]\ntimeout_sec = 60.0\n[agent]\ntimeout_sec = 120.0\n[environment]\ncpus = 1\nmemory_mb = 1024\nallow_internet = false\n',
  );
  file('instruction.md', 'Write the word portable into /app/answer.txt.\n');
  file('environment/Dockerfile', `FROM ${image}\nWORKDIR /app\nCOPY start.txt /app/start.txt\n`);
  file('environment/start.txt', 'start here\n');
  file('solution/solve.sh', '#!/bin/sh\necho portable > /app/answer.txt\n', 0o755);
  file(
    'tests/test.sh',
    '#!/bin/sh\nmkdir -p /logs/verifier\nif [ "$(cat /app/answer.txt 2>/dev/null)" = portable ]; then\n  echo 1 > /logs/verifier/reward.txt\nelse\n  echo 0 > /logs/verifier/reward.txt\nfi\n',
    0o755,
  );
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'harbor-portable-'));
  const image = await busyboxImage(scratch);
  task = join(scratch, 'busybox-task');
  writeTask(task, image);
  server = await startScriptedServer({ scripts: SCRIPTS });
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** `agent-bench run` on the task, without --base-image. */
const run = (model: string[]) => runHarborCli(scratch, task, model);

const scripted = (name: string) => ['--model', name, '--base-url', server.baseUrl];

describe('a Harbor task on a busybox image (nothing of agent-bench in it)', () => {
  it('validates without --base-image: its oracle earns 1, doing nothing 0', async () => {
    const rows = await proveHarborTasks([loadHarborFolder(task)], {});
    expect(rows).toEqual([
      { taskId: 'busybox-task', run: 'oracle', kind: 'passed', detail: 'passes' },
      { taskId: 'busybox-task', run: 'do-nothing', kind: 'passed', detail: 'scores 0' },
    ]);
  }, 600_000);

  it("a scripted model's commands run in the image's WORKDIR, are traced, and pass", async () => {
    const { code, stderr, result } = await run(scripted('writer'));
    expect(code, stderr).toBe(0);
    const trial = result.trials[0];
    expect(trial?.status, trial?.failure_reason ?? JSON.stringify(trial?.error)).toBe('passed');
    expect(trial?.score).toBe(1);
    const call = trial?.turn_logs[0]?.tool_calls[0];
    expect(call?.stdout).toBe('start here\nanswer.txt\nstart.txt\n');
    // The trace: the harness's shell, then the image's busybox ls.
    const exes = call?.processes?.map((p) => p.exe) ?? [];
    expect(exes[0]).toBe('/opt/agent-bench/bin/bash');
    expect(exes).toContain('/bin/ls');
    const python = trial?.turn_logs[1]?.tool_calls[0];
    expect(python?.exit_code).toBe(126);
    expect(python?.stderr).toMatch(
      /python3: command not found\n.*\/opt\/agent-bench\/bin\/python3: Permission denied/,
    );
  }, 600_000);

  it('a model that does nothing scores 0', async () => {
    const { result } = await run(scripted('idle'));
    const trial = result.trials[0];
    expect(trial?.status, JSON.stringify(trial?.error)).toBe('failed');
    expect(trial?.score).toBe(0);
  }, 600_000);

  it('the oracle passes in run', async () => {
    const { code, stderr, result } = await run(['--model', 'oracle']);
    expect(code, stderr).toBe(0);
    expect(result.trials[0]?.score).toBe(1);
  }, 600_000);
});

/** Terminal-Bench 2's verifier: curl the uv installer, then `uvx --with pytest==… pytest …`. */
const TB2_TEST = `#!/bin/bash
curl -LsSf https://astral.sh/uv/0.7.13/install.sh | sh
source $HOME/.local/bin/env
cd / && uvx -p 3.11 --with pytest==8.3.3 pytest -q -p no:cacheprovider tests/test_x.py
if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi
`;

describe('the Terminal-Bench 2 verifier pattern, offline', () => {
  let tb2 = '';
  let base = '';

  beforeAll(async () => {
    base = (await ensureImage()).tag;
    tb2 = join(scratch, 'tb2-task');
    writeTask(tb2, 'python:3.12-slim');
    // Built on the sandbox image, whose offline pip finds pytest installed: the build goes on.
    writeFileSync(
      join(tb2, 'environment/Dockerfile'),
      'FROM python:3.12-slim\nRUN pip install pytest\nWORKDIR /app\nCOPY start.txt /app/start.txt\n',
    );
    writeFileSync(join(tb2, 'tests/test.sh'), TB2_TEST, { mode: 0o755 });
    writeFileSync(
      join(tb2, 'tests/test_x.py'),
      'def test_answer():\n    assert open("/app/answer.txt").read().strip() == "portable"\n',
    );
  }, 600_000);

  it("earns 1 with the oracle: the stand-ins run the image's pytest and say so in the verifier's output", async () => {
    const oracle = await harborTrial(loadHarborFolder(tb2), 'oracle', { baseImage: base });
    const output = oracle.harbor_verifier?.output ?? '';
    expect(oracle.score, output).toBe(1);
    // The end of the output (stdout, pytest's, comes first): the stand-in's line.
    expect(output).toMatch(
      /agent-bench: offline uvx stand-in \(no network\): running the image's pytest .* for `uvx -p 3.11 --with pytest==8.3.3 pytest .*`; not installed, the image's own used: pytest==8.3.3/,
    );
    const nothing = await harborTrial(loadHarborFolder(tb2), 'nothing', { baseImage: base });
    expect(nothing.score).toBe(0);
    expect(nothing.agent_fault).toBeUndefined();
  }, 600_000);

  it("earns 1 for a model's work, in the verifier container", async () => {
    const { result } = await runHarborCli(scratch, tb2, ['--base-image', base, ...scripted('tb2-writer')]);
    const trial = result.trials[0];
    expect(trial?.status, JSON.stringify(trial?.flags.reward)).toBe('passed');
    expect(trial?.score).toBe(1);
  }, 600_000);
});
