/** `split = "holdout"` in a task folder, and `--split dev|holdout|all` on the commands that select tasks. */
import { renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTasks } from '../../../src/catalogue/load-tasks.js';
import { listCommand } from '../../../src/cli/commands/list.js';
import { type Split, selectWithSkills } from '../../../src/cli/select-tasks.js';
import { taskVersion } from '../../../src/tasks/version.js';
import { UsageError } from '../../../src/util/errors.js';
import { MINIMAL_FILES, MINIMAL_TOML, removeTaskFolders, taskFolder } from './task-folder.js';

afterEach(() => {
  removeTaskFolders();
  vi.restoreAllMocks();
});

/** Two task folders under one root: `tuned_v1` (dev) and `kept_v1` (holdout). */
function root(): string {
  const tuned = taskFolder(MINIMAL_FILES, 'tuned_v1');
  const kept = taskFolder({ ...MINIMAL_FILES, 'task.toml': `split = "holdout"\n${MINIMAL_TOML}` }, 'kept_v1');
  renameSync(kept, join(dirname(tuned), 'kept_v1'));
  return dirname(tuned);
}

const select = (tasks: string, dir: string, split?: Split) =>
  selectWithSkills({
    tasks,
    skillDirs: [],
    skillAb: false,
    tasksDirs: [dir],
    ...(split ? { split } : {}),
  }).map((t) => t.id);

describe('holdout tasks', () => {
  it('are read from task.toml; a split that is neither dev nor holdout is refused naming the field', () => {
    const dir = root();
    const { tasks } = loadTasks([dir], '--tasks-dir');
    expect(Object.fromEntries(tasks.map((t) => [t.id, t.meta.split ?? 'dev']))).toEqual({
      kept_v1: 'holdout',
      tuned_v1: 'dev',
    });
    const bad = taskFolder({ ...MINIMAL_FILES, 'task.toml': `split = "test"\n${MINIMAL_TOML}` }, 'bad_v1');
    expect(() => loadTasks([bad], '--tasks-dir')).toThrow(/task\.toml: split: /);
  });

  it('--split keeps the selected tasks of that split; all (the default) keeps every one', () => {
    const dir = root();
    expect(select('all', dir)).toEqual(['kept_v1', 'tuned_v1']);
    expect(select('all', dir, 'all')).toEqual(['kept_v1', 'tuned_v1']);
    expect(select('all', dir, 'dev')).toEqual(['tuned_v1']);
    expect(select('all', dir, 'holdout')).toEqual(['kept_v1']);
    // Built-in tasks are all dev.
    expect(select('debug_python_v1,kept_v1', dir, 'dev')).toEqual(['debug_python_v1']);
  });

  it('selecting no task of the split is a usage error that says so', () => {
    const dir = root();
    expect(() => select('tuned_v1', dir, 'holdout')).toThrow(UsageError);
    expect(() => select('tuned_v1', dir, 'holdout')).toThrow(
      /--split holdout: none of the selected tasks is in it/,
    );
  });

  it('the split is not part of the task version: moving a task to holdout does not make its results another task', () => {
    const dir = root();
    const [kept] = loadTasks([dir], '--tasks-dir').tasks.filter((t) => t.id === 'kept_v1');
    if (kept === undefined) throw new Error('kept_v1 not loaded');
    const { split: _, ...dev } = kept.meta;
    expect(kept.meta.split).toBe('holdout');
    expect(taskVersion(kept)).toBe(taskVersion({ ...kept, meta: dev }));
  });

  it('list marks holdout tasks and takes --split', async () => {
    const dir = root();
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    await listCommand({ tasksDir: [dir], split: 'holdout' });
    expect(out).toMatch(/^kept_v1 /m);
    expect(out).toMatch(/from: \S+kept_v1 \(split: holdout\)$/m);
    expect(out).not.toMatch(/^tuned_v1 /m);
    expect(out).not.toMatch(/^debug_python_v1 /m);
  });
});
