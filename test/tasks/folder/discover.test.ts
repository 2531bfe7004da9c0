/**
 * Task folders are found, never registered: under tasks/ and under every --tasks-dir, on run,
 * list, validate and ladder (which all select through selectWithSkills), and `list` says where each
 * task comes from.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allTasks } from '../../../src/catalogue/built-in.js';
import { loadTasks, taskFoldersIn } from '../../../src/catalogue/load-tasks.js';
import { listCommand } from '../../../src/cli/commands/list.js';
import { selectWithSkills } from '../../../src/cli/select-tasks.js';
import { UsageError } from '../../../src/util/errors.js';
import { MINIMAL_FILES, MINIMAL_TOML, removeTaskFolders, taskFolder } from './task-folder.js';

afterEach(() => {
  removeTaskFolders();
  vi.restoreAllMocks();
});

const select = (tasks: string, tasksDirs: string[]) =>
  selectWithSkills({ tasks, skillDirs: [], skillAb: false, tasksDirs }).map((t) => t.id);

describe('discovery', () => {
  it('the built-in task folders are tasks without any registry entry', () => {
    const folders = allTasks().flatMap((t) =>
      t.kind === 'sandbox' && t.folder !== undefined ? [{ id: t.id, dir: t.folder.dir }] : [],
    );
    expect(folders.map((t) => t.id).sort()).toEqual(
      expect.arrayContaining(['debug_js_v1', 'debug_python_v1', 'doc_trap_v1', 'long_procedure_v1']),
    );
    for (const t of folders) expect(t.dir).toMatch(new RegExp(`/tasks/${t.id}$`));
  });

  it('a root holds task folders one level down, in name order; a task folder given is itself', () => {
    const a = taskFolder(MINIMAL_FILES, 'b_task');
    const root = dirname(a);
    mkdirSync(join(root, 'not_a_task'));
    mkdirSync(join(root, '.hidden'));
    expect(taskFoldersIn(root)).toEqual([a]);
    expect(taskFoldersIn(a)).toEqual([a]);
  });

  it('a root that is missing or holds no task is a usage error', () => {
    expect(() => loadTasks(['/nonexistent/tasks'], '--tasks-dir')).toThrow(
      /^--tasks-dir \/nonexistent\/tasks: no such folder$/,
    );
    const empty = dirname(taskFolder({}, 'nothing'));
    expect(() => loadTasks([empty], '--tasks-dir')).toThrow(
      /no task folder here; looked for .*a task folder \(task\.toml or task\.json\)/,
    );
  });

  it('every broken folder of every root is reported at once', () => {
    const a = taskFolder(
      { ...MINIMAL_FILES, 'task.toml': MINIMAL_TOML.replace('max_turns = 5', 'max_turns = 0') },
      'a',
    );
    const b = taskFolder({ ...MINIMAL_FILES, 'task.toml': 'nope' }, 'b');
    let message = '';
    try {
      loadTasks([a, b], '--tasks-dir');
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      message = (err as Error).message;
    }
    expect(message.split('\n')).toEqual([
      expect.stringMatching(/\/a\/task\.toml: max_turns: Too small/),
      expect.stringMatching(/\/b\/task\.toml: line 1, column \d+: not valid TOML/),
    ]);
  });
});

describe('--tasks-dir', () => {
  it('with the list left at all, only the folders’ tasks run; named ids pick from built-in and yours', () => {
    const dir = taskFolder(MINIMAL_FILES, 'mine_v1');
    expect(select('all', [dirname(dir)])).toEqual(['mine_v1']);
    expect(select('all', [dir])).toEqual(['mine_v1']);
    expect(select('debug_python_v1,mine_v1', [dir])).toEqual(['debug_python_v1', 'mine_v1']);
    expect(select('debug_python_v1', [])).toEqual(['debug_python_v1']);
    expect(() => select('mine_v2', [dir])).toThrow(/unknown task "mine_v2"; known tasks: .*mine_v1/);
  });

  it('is repeatable', () => {
    const a = taskFolder(MINIMAL_FILES, 'first_v1');
    const b = taskFolder(MINIMAL_FILES, 'second_v1');
    expect(select('all', [a, b])).toEqual(['first_v1', 'second_v1']);
  });

  it('a folder with a built-in task’s id is refused, naming both', () => {
    const dir = taskFolder(MINIMAL_FILES, 'debug_python_v1');
    expect(() => select('all', [dir])).toThrow(
      new RegExp(
        `two tasks have the id debug_python_v1: .*tasks/debug_python_v1 and ${dir}; give one another id`,
      ),
    );
  });

  it('list shows every task with where it comes from', async () => {
    const dir = taskFolder(MINIMAL_FILES, 'mine_v1');
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    await listCommand({ tasksDir: [dir] });
    const from = (id: string) =>
      new RegExp(`^${id} [^\\n]*\\n[^\\n]*flags: [^\\n]*\\n\\s+from: ([^\\n]+)$`, 'm').exec(out)?.[1];
    expect(from('mine_v1')).toBe(dir);
    expect(from('debug_python_v1')).toMatch(/tasks\/debug_python_v1$/);
    expect(from('tdd_order_v1')).toMatch(/tasks\/tdd_order_v1$/);
    expect(from('helpdesk_buy_laptop_over_limit')).toBe('dialogue pack tasks/helpdesk');
    expect(from('tool_mirage_v1')).toBe('skill skills/data-pipeline');
  });
});
