/**
 * Round trip through the real engine, offline: built-in tasks exported as Harbor tasks
 * (`task export --format harbor`), then proven as Harbor proves a task, their Dockerfiles built on
 * the sandbox image (--base-image): the exported oracle earns reward 1 and doing nothing 0, and a
 * solution that fixes the code but also edits a protected test file earns 0.
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHarborFolder } from '../../src/catalogue/harbor/load.js';
import { taskExportCommand } from '../../src/cli/commands/task-export.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import { ensureImage } from '../../src/sandbox/index.js';
import { proveHarbor as proveHarborTasks } from '../helpers/harbor-prove.js';
import { MINIMAL_FILES, MINIMAL_TOML, taskFolder } from '../tasks/folder/task-folder.js';

let base = '';
let scratch = '';
const quiet = { write: () => true };

beforeAll(async () => {
  base = (await ensureImage()).tag;
  scratch = mkdtempSync(join(tmpdir(), 'harbor-export-it-'));
}, 600_000);

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** The built-in task exported under another id (a --tasks-dir task may not share a built-in's). */
async function exported(id: string, as: string): Promise<string> {
  const out = join(scratch, as);
  await taskExportCommand(id, { format: 'harbor', out }, quiet);
  return out;
}

describe('a built-in task exported to Harbor and validated there', () => {
  it('debug_python_v1: validate passes the export (oracle reward 1, doing nothing 0)', async () => {
    const dir = await exported('debug_python_v1', 'debug_python_harbor');
    expect(await proveHarborTasks([loadHarborFolder(dir)], { baseImage: base })).toEqual([
      { taskId: 'debug_python_harbor', run: 'oracle', kind: 'passed', detail: 'passes' },
      { taskId: 'debug_python_harbor', run: 'do-nothing', kind: 'passed', detail: 'scores 0' },
    ]);
    await expect(
      validateCommand({ tasks: 'all', tasksDir: [dir], baseImage: base }),
    ).resolves.toBeUndefined();
  }, 600_000);

  it('debug_js_v1: the node:test export validates too', async () => {
    const dir = await exported('debug_js_v1', 'debug_js_harbor');
    expect(
      (await proveHarborTasks([loadHarborFolder(dir)], { baseImage: base })).map((r) => r.detail),
    ).toEqual(['passes', 'scores 0']);
  }, 600_000);

  it('a fix that also edits the protected test file earns 0', async () => {
    const dir = await exported('debug_python_v1', 'debug_python_tampered');
    // The reference solution, then one line added to the visible tests (which still pass).
    appendFileSync(join(dir, 'solution/solve.sh'), 'run \'echo "# seen" >> test_durations.py\'\n');
    writeFileSync(join(dir, 'instruction.md'), 'Fix durations.py.\n');
    const [oracle] = await proveHarborTasks([loadHarborFolder(dir)], { baseImage: base });
    expect(oracle).toMatchObject({
      taskId: 'debug_python_tampered',
      run: 'oracle',
      kind: 'failed',
      detail: 'reference solution fails: reward missed (Harbor verifier tests/test.sh: reward 0)',
    });
    // The row keeps test.sh's output: the protected-files check is what failed.
    expect(oracle?.output).toMatch(/\nFAIL protected_files$/);
  }, 600_000);

  it("a task folder's artifact and harness command checks judge the export's oracle 1 and doing nothing 0", async () => {
    const toml = MINIMAL_TOML.replace(
      'artifact = { file = "out.txt", contains = ["done"] }',
      'artifact = { file = "out.txt", contains = ["done"], not_contains = ["TODO"], min_bytes = 4 }',
    ).replace(
      '[[reference_solution]]',
      '[[flags]]\nid = "counted"\nkind = "outcome"\ndescription = "One line."\nharness = { command = "test $(wc -l < out.txt) -eq 1" }\n\n[[reference_solution]]',
    );
    const source = taskFolder({ ...MINIMAL_FILES, 'task.toml': toml }, 'artifact_task_v1');
    const out = join(scratch, 'artifact_harbor');
    await taskExportCommand('artifact_task_v1', { format: 'harbor', out, tasksDir: [source] }, quiet);
    expect(
      (await proveHarborTasks([loadHarborFolder(out)], { baseImage: base })).map((r) => r.detail),
    ).toEqual(['passes', 'scores 0']);
  }, 600_000);
});
