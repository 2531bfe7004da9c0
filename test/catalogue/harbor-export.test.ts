/**
 * `task export --format harbor`: a task folder written as a Harbor task folder. Which checks go
 * across (outcome checks over the final files) and which are left out with their reason, the
 * files of the folder (test.sh, solve.sh, the Dockerfile, the protected files' hashes, the README),
 * the refusals, and that agent-bench's own Harbor loader reads the export.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadHarborFolder } from '../../src/catalogue/harbor/load.js';
import { exportChecks } from '../../src/catalogue/harbor-export/checks.js';
import { exportedDockerfile, needsOf } from '../../src/catalogue/harbor-export/dockerfile.js';
import { harborExport } from '../../src/catalogue/harbor-export/folder.js';
import { solveScript } from '../../src/catalogue/harbor-export/solve-script.js';
import { loadTaskFolder, readTaskManifest } from '../../src/catalogue/native/load.js';
import { taskExportCommand } from '../../src/cli/commands/task-export.js';
import { taskVersion } from '../../src/tasks/version.js';
import { UsageError } from '../../src/util/errors.js';
import { MINIMAL_FILES, MINIMAL_TOML, taskFolder } from '../tasks/folder/task-folder.js';

const TASKS = join(import.meta.dirname, '../../tasks');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const quiet = { write: () => true };

function exportOf(dir: string) {
  const task = loadTaskFolder(dir);
  return { task, ...harborExport(task, readTaskManifest(dir), taskVersion(task)) };
}

describe('a task folder as a Harbor task', () => {
  it('debug_python_v1: its harness tests (hidden ones from /tests) and its protected files are judged; the trace flags are left out, said why', () => {
    const { task, files, exported } = exportOf(join(TASKS, 'debug_python_v1'));
    expect([...files.keys()].sort()).toEqual([
      'README.md',
      'environment/Dockerfile',
      'environment/workspace/durations.py',
      'environment/workspace/test_durations.py',
      'instruction.md',
      'solution/files/01-durations.py',
      'solution/solve.sh',
      'task.toml',
      'tests/hidden/reference/durations.py',
      'tests/hidden/test_hidden_durations.py',
      'tests/protected.sha256',
      'tests/test.sh',
    ]);
    expect(exported.checks).toEqual([
      {
        flag: 'file_edit',
        kind: 'pytest',
        targets: ['/tests/hidden/test_hidden_durations.py', 'test_durations.py'],
      },
    ]);
    expect(exported.leftOut.map((l) => l.flag)).toEqual([
      'file_read',
      'error_interpret',
      'self_verify',
      'behaves_like_reference',
      'no_collateral',
    ]);
    expect(exported.leftOut[3]?.why).toMatch(/judged by flags.ts \(`behavesLikeReference`\)/);
    expect(exported.leftOut[4]?.why).toMatch(/against the reference's own edits/);
    expect(exported.leftOut[0]?.why).toMatch(/a read \(`read`\): evidence from the trace/);
    const test = files.get('tests/test.sh');
    expect(test?.mode).toBe(0o755);
    expect(test?.content).toContain(
      "verdict 'file_edit' pytest_passes - '/tests/hidden/test_hidden_durations.py' 'test_durations.py'",
    );
    expect(test?.content).toContain('verdict protected_files protected_intact');
    expect(test?.content).toContain('/logs/verifier/reward.txt');
    // durations.py is the allowed write; the visible tests are protected, by their content's hash.
    const suite = task.files.find((f) => f.path === 'test_durations.py')?.content ?? '';
    expect(files.get('tests/protected.sha256')?.content).toBe(
      `${createHash('sha256').update(suite).digest('hex')}  test_durations.py\n`,
    );
    expect(files.get('instruction.md')?.content).toBe(`${task.prompt}\n`);
    const readme = files.get('README.md')?.content ?? '';
    for (const id of ['file_read', 'error_interpret', 'self_verify', 'file_edit', 'protected_files'])
      expect(readme).toContain(`\`${id}\``);
    expect(files.get('solution/files/01-durations.py')?.content).toBe(
      readFileSync(join(TASKS, 'debug_python_v1/solution/durations.py'), 'utf8'),
    );
    expect(files.get('environment/Dockerfile')?.content).toMatch(/^FROM python:3\.12-slim$/m);
  });

  it("is read by agent-bench's own Harbor loader as written", async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'harbor-export-')), 'debug_python_harbor');
    dirs.push(join(out, '..'));
    let said = '';
    await taskExportCommand(
      'debug_python_v1',
      { format: 'harbor', out },
      { write: (s: string) => (said += s) },
    );
    expect(said).toMatch(
      /tests\/test\.sh judges file_edit; left out .*: file_read, error_interpret, self_verify/,
    );
    const harbor = loadHarborFolder(out);
    expect(harbor.id).toBe('debug_python_harbor');
    expect(harbor.dockerfile?.facts).toEqual({ baseImage: 'python:3.12-slim', workdir: '/workspace' });
    expect(harbor.hasSolution).toBe(true);
    expect(harbor.tests.sort()).toEqual([
      'hidden/reference/durations.py',
      'hidden/test_hidden_durations.py',
      'protected.sha256',
      'test.sh',
    ]);
    expect(harbor.environment.allowInternet).toBe(false);
    expect(statSync(join(out, 'solution/solve.sh')).mode & 0o777).toBe(0o755);
    await expect(taskExportCommand('debug_python_v1', { format: 'harbor', out }, quiet)).rejects.toThrow(
      `${out} is not an empty folder`,
    );
  });

  it('refuses a task whose flags are all judged on the trace or by flags.ts, a dialogue task, a skill task, another format', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'harbor-export-')), 'x');
    dirs.push(join(out, '..'));
    await expect(taskExportCommand('tdd_order_v1', { format: 'harbor', out }, quiet)).rejects.toThrow(
      new UsageError(
        "tdd_order_v1: not exported: Harbor's verifier sees only the final files, and every flag of this task is judged on flags.ts code (test_first, red_observed, tests_pass, behaves_like_reference)",
      ),
    );
    await expect(
      taskExportCommand('helpdesk_id_password_reset', { format: 'harbor', out }, quiet),
    ).rejects.toThrow(/is a dialogue task/);
    await expect(taskExportCommand('skill_run_v1_report', { format: 'harbor', out }, quiet)).rejects.toThrow(
      /is a skill task/,
    );
    await expect(taskExportCommand('debug_js_v1', { format: 'csv', out }, quiet)).rejects.toThrow(
      '--format csv: the formats are harbor',
    );
  });

  it('exports harness commands and artifacts, and says what part of them is not judged', () => {
    const toml = MINIMAL_TOML.replace(
      'artifact = { file = "out.txt", contains = ["done"] }',
      'artifact = { file = "out.txt", contains = ["done"], not_contains = ["TODO"], regex = "^d", min_bytes = 3 }',
    ).replace(
      '[[reference_solution]]',
      `[[flags]]
id = "checked"
kind = "outcome"
description = "grep finds done."
harness = { command = "grep -q done out.txt", exit_code = 0 }
requires = ["read_notes", "wrote"]

[[reference_solution]]`,
    );
    const { exported, files } = exportOf(taskFolder({ ...MINIMAL_FILES, 'task.toml': toml }));
    expect(exported.checks).toEqual([
      {
        flag: 'wrote',
        kind: 'artifact',
        file: 'out.txt',
        contains: ['done'],
        notContains: ['TODO'],
        minBytes: 3,
      },
      { flag: 'checked', kind: 'command', command: 'grep -q done out.txt', exitCode: 0 },
    ]);
    expect(exported.leftOut).toEqual([
      { flag: 'read_notes', why: expect.stringMatching(/^process flag judged on a read/) },
      { flag: 'wrote', why: expect.stringMatching(/its regex content checks are not exported/) },
      { flag: 'checked', why: expect.stringMatching(/valid tool call; Harbor has no trace/) },
      { flag: 'checked', why: 'its requirement read_notes is not judged in Harbor (see read_notes)' },
    ]);
    const test = files.get('tests/test.sh')?.content ?? '';
    expect(test).toContain("verdict 'wrote' artifact_holds 'out.txt' '+done' '-TODO' '>=3'");
    expect(test).toContain("verdict 'checked' exits_with 0 'grep -q done out.txt'");
    // notes.txt is protected (out.txt is the only allowed write).
    expect(files.get('tests/protected.sha256')?.content).toMatch(/^[0-9a-f]{64} {2}notes\.txt\n$/);
  });

  it('checks of several kinds each ask for what they run', () => {
    const { checks } = exportChecks([]);
    expect(checks).toEqual([]);
    expect(needsOf(['python3 -m pytest -q'], [])).toEqual({ python: true, node: false });
    expect(needsOf(['node --test'], ['a.py'])).toEqual({ python: true, node: true });
    const both = exportedDockerfile({
      taskId: 't',
      needs: { python: true, node: true },
      hasFiles: false,
      setupCommands: ['chmod +x run.sh'],
    });
    expect(both).toMatch(/^FROM debian:bookworm-slim$/m);
    expect(both).toContain('python3 -m pytest --version >/dev/null 2>&1 || (apt-get update');
    expect(both).toContain('node --version >/dev/null 2>&1 || (apt-get update');
    expect(both).toContain('RUN ["bash","-c","chmod +x run.sh"]');
    expect(both).not.toContain('COPY');
  });
});

describe('the reference solution as solve.sh', () => {
  it("replays commands where the last one left the shell, and write_file's exact text from solution/", () => {
    const { script, files } = solveScript('t', [
      { text: 'Reading.', calls: [{ name: 'read_file', arguments: { path: 'a.py' } }] },
      { calls: [{ name: 'execute_command', arguments: { command: "cd sub && echo 'it''s'" } }] },
      { calls: [{ name: 'write_file', arguments: { path: 'dir/a b.py', content: 'x = 1' } }] },
    ]);
    expect(script).toContain(`run 'cd sub && echo '\\''it'\\'''\\''s'\\'''`);
    expect(script).toContain("put '/solution/files/01-a_b.py' 'dir/a b.py'");
    expect(script).not.toContain("a.py'\n");
    expect([...files]).toEqual([['files/01-a_b.py', 'x = 1']]);
  });

  it('refuses a tool a script cannot replay', () => {
    expect(() => solveScript('t', [{ calls: [{ name: 'lookup_user', arguments: {} }] }])).toThrow(
      new UsageError(
        't: its reference solution calls lookup_user, which a Harbor solve.sh cannot replay (only execute_command, write_file and read_file)',
      ),
    );
  });
});
