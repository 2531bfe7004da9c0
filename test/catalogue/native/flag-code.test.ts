/**
 * flags.ts, the escape hatch: its named exports are checks, imported on first use or ahead with
 * loadFlagCode (as run, validate and ladder do before any container starts), and a manifest naming
 * an export that is not a check function is a usage error naming the file and the export.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { flagCodeRef, loadFlagCode } from '../../../src/catalogue/native/flag-code.js';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import { packageRoot } from '../../../src/util/package-root.js';
import { writeFile } from '../../scoring/call-fixtures.js';
import { craftTrial, reachedTurns } from '../../tasks/crafted-trial.js';
import {
  MINIMAL_FILES,
  MINIMAL_TOML,
  removeTaskFolders,
  taskFolder,
} from '../../tasks/folder/task-folder.js';

afterEach(removeTaskFolders);

const FLAGS = `export function wroteDone(ctx) {
  return ctx.finalSnapshot.has('out.txt') ? { reached: true, turn: null } : { reached: false, detail: 'no out.txt' };
}
export const notACheck = 1;
`;

const withCode = (name: string, flags = FLAGS) =>
  taskFolder({
    ...MINIMAL_FILES,
    'task.toml': MINIMAL_TOML.replace(
      'artifact = { file = "out.txt", contains = ["done"] }',
      `code = "${name}"`,
    ),
    'flags.ts': flags,
  });

describe('flag code', () => {
  it('an export named by `code` is the flag’s check', async () => {
    const task = loadTaskFolder(withCode('wroteDone'));
    await loadFlagCode([task]);
    expect(task.folder?.flagCode?.exports).toEqual(['wroteDone']);
    const t = (turns: Parameters<typeof craftTrial>[1]) =>
      reachedTurns(task, craftTrial(task, turns, () => false).ctx);
    expect((await t([[writeFile('out.txt', 'x')]])).wrote).toBe('post');
    expect((await t([])).wrote).toBe(false);
  });

  it.each(['missing', 'notACheck'])(
    'naming %s, which is no check function, fails before any trial',
    async (name) => {
      const task = loadTaskFolder(withCode(name));
      await expect(loadFlagCode([task])).rejects.toThrow(
        new RegExp(`/sample_task_v1/flags\\.ts: exports no check function "${name}"$`),
      );
    },
  );

  it('flags.ts that cannot be loaded is a usage error naming it', async () => {
    const task = loadTaskFolder(withCode('wroteDone', 'throw new Error("broken at load");\n'));
    await expect(loadFlagCode([task])).rejects.toThrow(/\/flags\.ts: cannot be loaded \(broken at load\)/);
  });

  it('the task version hashes the flag code', () => {
    const dir = withCode('wroteDone');
    const before = loadTaskFolder(dir).source?.checks;
    writeFileSync(join(dir, 'flags.ts'), `${FLAGS}// changed\n`);
    expect(loadTaskFolder(dir).source?.checks).not.toBe(before);
  });

  it('runs a built-in folder’s flags.ts from source here, and flags.js compiled beside flags.ts elsewhere', () => {
    const builtIn = join(packageRoot(), 'tasks', 'debug_js_v1');
    expect(flagCodeRef(builtIn, ['x']).module).toBe(join(builtIn, 'flags.ts'));
    const dir = withCode('wroteDone');
    expect(flagCodeRef(dir, ['x']).module).toBe(join(dir, 'flags.ts'));
    writeFileSync(join(dir, 'flags.js'), FLAGS);
    expect(flagCodeRef(dir, ['x'])).toEqual({
      source: join(dir, 'flags.ts'),
      module: join(dir, 'flags.js'),
      exports: ['x'],
    });
  });

  it('the built-in flags.ts files import only the task-author kit (and Node built-ins)', () => {
    const tasks = join(packageRoot(), 'tasks');
    const files = readdirSync(tasks)
      .map((name) => join(tasks, name, 'flags.ts'))
      .filter((f) => {
        try {
          return readFileSync(f).length > 0;
        } catch {
          return false;
        }
      });
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) {
      const specifiers = [...readFileSync(f, 'utf8').matchAll(/^import[^;]*?from '([^']+)';/gms)].map(
        (m) => m[1],
      );
      expect(specifiers.length, f).toBeGreaterThan(0);
      for (const s of specifiers) expect(s, f).toMatch(/^(node:.*|\.\.\/\.\.\/src\/kit\/index\.js)$/);
    }
  });
});
