/**
 * The package as an npm user gets it: `npm pack`, installed into a temporary prefix, run from a
 * folder that is not the clone. Needs the npm registry or npm's cache (CI has both) and Docker.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResultFiles } from '../../src/results/store.js';

const exec = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');

let work = '';
let installed = '';
let tarball = '';
let files: string[] = [];
let packageDir = '';

async function agentBench(
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(installed, args, {
      cwd,
      env: { ...process.env, CI: 'true' },
      timeout: 300_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ab-package-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const packed = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, packed[0]?.filename ?? '');
  files = packed[0]?.files.map((f) => f.path) ?? [];
  const prefix = join(work, 'prefix');
  await exec(
    'npm',
    ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    { cwd: work, timeout: 600_000 },
  );
  installed = join(prefix, 'bin', 'agent-bench');
  // The optional dependency taken away again (npm installs optional dependencies even with
  // --omit=optional on a global install): the in-process GGUF backend is what a user may not have.
  packageDir = join(prefix, 'lib', 'node_modules', 'agent-bench');
  await rm(join(packageDir, 'node_modules', 'node-llama-cpp'), { recursive: true, force: true });
}, 900_000);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe.sequential('the packed package', () => {
  it('ships the built code, tasks, skills, sandbox, the dashboard and the docs the README links, and no tests', () => {
    expect(files).toContain('dist/src/cli/main.js');
    expect(files).toContain('README.md');
    expect(files).toContain('docs/commands.md');
    expect(files).toContain('Dockerfile');
    expect(files).toContain('sandbox/exec-wrapper.sh');
    expect(files.some((f) => f.startsWith('dist/tasks/'))).toBe(true);
    expect(files.some((f) => f.startsWith('skills/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('dist/test/'))).toEqual([]);
    // Of src/, only the dashboard's browser code, served as it is (the server reads it from there).
    expect(files.filter((f) => f.startsWith('src/') && !f.startsWith('src/dashboard/static/'))).toEqual([]);
    expect(files).toContain('src/dashboard/static/index.html');
    expect(files).toContain('src/dashboard/static/app.js');
  });

  it('runs from another folder: --help, list, doctor, and an oracle run writing ./results', async () => {
    expect(existsSync(installed)).toBe(true);
    const elsewhere = await mkdtemp(join(work, 'user-'));
    const help = await agentBench(['--help'], elsewhere);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: agent-bench');
    const list = await agentBench(['list'], elsewhere);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('debug_python_v1');

    // Without the optional dependency, doctor says how to get the in-process backend, exactly.
    const doctor = await agentBench(['doctor'], elsewhere);
    expect(doctor.stdout).toContain(
      `in-process GGUF backend (--model gguf:FILE): gguf: models need node-llama-cpp, which is not installed: run npm install --prefix "${packageDir}" --no-save node-llama-cpp@3.21.1`,
    );

    const run = await agentBench(['run', '--model', 'oracle', '--tasks', 'doc_trap_v1'], elsewhere);
    // Progress goes to stderr; nothing there may be an error or a stack trace.
    expect(run.stderr).not.toMatch(/\berror\b|internal|\n\s+at /i);
    expect(run.code).toBe(0);
    const { results, problems } = await readResultFiles(join(elsewhere, 'results'));
    expect(problems).toEqual([]);
    expect(results.map(({ result: r }) => [r.task_id, r.model, r.status, r.pass_all_k])).toEqual([
      ['doc_trap_v1', 'oracle', 'complete', true],
    ]);
    expect((await readdir(join(elsewhere, 'results'))).length).toBeGreaterThan(0);
  });
});
