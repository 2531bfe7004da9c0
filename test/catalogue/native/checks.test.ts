/**
 * The declarative checks of a task folder, each on crafted trials: what reaches a flag and what does
 * not. The ported tasks' tests (debug-python, debug-js, doc-trap, long-procedure) prove the checks
 * they use again, on the fixtures they were written for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import type { Task } from '../../../src/tasks/types.js';
import { proc, readFile, shell, traced, writeFile } from '../../scoring/call-fixtures.js';
import { type CraftedCall, craftTrial, type FakeTruth, reachedTurns } from '../../tasks/crafted-trial.js';
import { MINIMAL_FILES, removeTaskFolders, taskFolder } from '../../tasks/folder/task-folder.js';

afterEach(removeTaskFolders);

const NOTES = Array.from({ length: 10 }, (_, i) => `line ${i + 1} of the notes`).join('\n');
const MODULE = 'def helper():\n    return 1\n\n\ndef target():\n    x = 1\n    y = 2\n    return x + y\n';

/** A task with these flags (TOML `[[flags]]` tables), over notes.txt and mod.py. */
function taskWith(flags: string, extra: Record<string, string> = {}): Task {
  const toml = `max_turns = 9
allowed_writes = ["/out.txt", "/mod.py"]

[meta]
description = "checks"

${flags}

[[reference_solution]]
calls = [{ name = "read_file", arguments = { path = "notes.txt" } }]

[[lures]]
id = "nothing"
description = "does nothing"
expect = { unreached = ["${/id = "([^"]+)"/.exec(flags)?.[1]}"] }
script = []
`;
  return loadTaskFolder(
    taskFolder({
      ...MINIMAL_FILES,
      'task.toml': toml,
      'files/notes.txt': NOTES,
      'files/mod.py': MODULE,
      ...extra,
    }),
  );
}

const reached = (task: Task, turns: readonly (readonly CraftedCall[])[], truth: FakeTruth = () => false) =>
  reachedTurns(task, craftTrial(task, turns, truth).ctx);

const flag = (id: string, kind: string, check: string, extra = '') =>
  `[[flags]]\nid = "${id}"\nkind = "${kind}"\ndescription = "${id}"\n${extra}${check}\n`;

describe('read', () => {
  it('half the file by default, by any output the model was shown', async () => {
    const task = taskWith(flag('r', 'process', 'read = { file = "notes.txt" }'));
    expect((await reached(task, [[shell('head -n 4 notes.txt')]])).r).toBe(false);
    expect((await reached(task, [[shell('head -n 4 notes.txt')], [shell('sed -n 5,6p notes.txt')]])).r).toBe(
      2,
    );
    expect((await reached(task, [[shell('cat notes.txt | wc -l')]])).r).toBe(false);
  });

  it('at_least, block and lines_containing say which part is enough', async () => {
    const all = taskWith(flag('r', 'process', 'read = { file = "notes.txt", at_least = 1 }'));
    expect((await reached(all, [[shell('head -n 9 notes.txt')]])).r).toBe(false);
    expect((await reached(all, [[readFile('notes.txt')]])).r).toBe(1);
    // at_least = 1: half of the small module is not enough here, so only the block can be.
    const block = taskWith(
      flag('r', 'process', 'read = { file = "mod.py", at_least = 1, block = "^def target" }'),
    );
    expect((await reached(block, [[shell("sed -n '5,8p' mod.py")]])).r).toBe(1);
    expect((await reached(block, [[shell("sed -n '1,4p' mod.py")]])).r).toBe(false);
    const lines = taskWith(
      flag('r', 'process', 'read = { file = "notes.txt", lines_containing = ["line 7 "] }'),
    );
    expect((await reached(lines, [[shell('grep -n "line 7 " notes.txt')]])).r).toBe(1);
  });

  it('before_first_change_of: only what was shown before the change; require_change: no change, no flag', async () => {
    const before = taskWith(
      flag('r', 'process', 'read = { file = "notes.txt", before_first_change_of = ["out.txt"] }'),
    );
    const write = writeFile('out.txt', 'x');
    expect((await reached(before, [[write], [readFile('notes.txt')]])).r).toBe(false);
    expect((await reached(before, [[readFile('notes.txt')], [write]])).r).toBe(1);
    expect((await reached(before, [[readFile('notes.txt')]])).r).toBe(1);
    const needed = taskWith(
      flag(
        'r',
        'process',
        'read = { file = "notes.txt", before_first_change_of = ["out.txt"], require_change = true }',
      ),
    );
    expect((await reached(needed, [[readFile('notes.txt')]])).r).toBe(false);
    expect((await reached(needed, [[readFile('notes.txt')], [write]])).r).toBe(1);
  });
});

describe('test_run', () => {
  const pytest = (exit: number, summary: string) =>
    traced('python3 -m pytest -q', {
      exit,
      stdout: `${summary}\n`,
      processes: [proc(['python3', '-m', 'pytest', '-q'], { exit, reads: ['/workspace/mod.py'] })],
    });
  const red = pytest(1, '1 failed, 2 passed in 0.01s');
  const green = pytest(0, '3 passed in 0.01s');
  const edit = writeFile('mod.py', `${MODULE}# fixed\n`);

  it('a failing run seen before the first change, a passing one after the last', async () => {
    const task = taskWith(
      flag(
        'red',
        'process',
        'test_run = { runner = "pytest", result = "fail", reads = ["mod.py"], before_first_change_of = ["mod.py"] }',
      ) +
        flag(
          'green',
          'process',
          'test_run = { runner = "pytest", result = "pass", reads = ["mod.py"], after_last_change_of = ["mod.py"] }',
        ),
    );
    expect(await reached(task, [[red], [edit], [green]])).toEqual({ red: 1, green: 3 });
    expect(await reached(task, [[edit], [red], [green]])).toEqual({ red: false, green: 3 });
    expect(await reached(task, [[red], [green], [edit]])).toEqual({ red: 1, green: false });
    // Nothing changed: nothing to be before or after.
    expect(await reached(task, [[red], [green]])).toEqual({ red: false, green: false });
  });

  it('a run whose verdict the model never saw, or of other files, is no evidence', async () => {
    const task = taskWith(
      flag('red', 'process', 'test_run = { runner = "pytest", result = "fail", reads = ["mod.py"] }'),
    );
    const unseen = traced('python3 -m pytest -q > /dev/null', {
      exit: 1,
      processes: [proc(['python3', '-m', 'pytest', '-q'], { exit: 1, reads: ['/workspace/mod.py'] })],
    });
    const other = traced('python3 -m pytest -q /tmp/t.py', {
      exit: 1,
      stdout: '1 failed in 0.01s\n',
      processes: [proc(['python3', '-m', 'pytest', '-q', '/tmp/t.py'], { exit: 1, reads: ['/tmp/t.py'] })],
    });
    expect(
      (await reached(task, [[unseen], [other], [shell('echo "1 failed in 0.01s"; exit 1', { exit: 1 })]]))
        .red,
    ).toBe(false);
    expect((await reached(task, [[red]])).red).toBe(1);
  });
});

describe('harness checks', () => {
  it('harness_tests: the runner on the named files, hidden ones where the harness places them', async () => {
    const task = taskWith(
      flag(
        't',
        'outcome',
        'harness_tests = { runner = "node:test", files = ["hidden/x.test.mjs", "a b.test.mjs"], tests = 4 }',
      ),
      { 'hidden/x.test.mjs': '' },
    );
    const t = craftTrial(task, [[writeFile('out.txt', 'x')]], () => true);
    // Exit 0 alone is not enough: node's own summary must count the 4 tests, all passed.
    expect((await reachedTurns(task, t.ctx)).t).toBe(false);
    expect(t.asked).toEqual(["node --test --test-reporter=tap /checks/hidden/x.test.mjs 'a b.test.mjs'"]);
  });

  it('harness: the command and its exit code, only after some work', async () => {
    const task = taskWith(flag('h', 'outcome', 'harness = { command = "test -s out.txt", exit_code = 0 }'));
    expect((await reached(task, [], () => true)).h).toBe(false);
    expect((await reached(task, [[writeFile('out.txt', 'x')]], (c) => c === 'test -s out.txt')).h).toBe(
      'post',
    );
    expect((await reached(task, [[writeFile('out.txt', 'x')]], () => false)).h).toBe(false);
  });

  it('requires: reached only when the required flag holds too, on its own turn', async () => {
    const task = taskWith(
      flag('r', 'process', 'read = { file = "notes.txt" }', 'requires = ["h"]\n') +
        flag('h', 'outcome', 'harness = { command = "true" }'),
    );
    expect((await reached(task, [[readFile('notes.txt')]], () => true)).r).toBe(1);
    expect((await reached(task, [[readFile('notes.txt')]], () => false)).r).toBe(false);
  });
});

describe('artifact and commands', () => {
  it('artifact: a regular file at the end, every content check holding on it', async () => {
    const task = taskWith(
      flag('made', 'outcome', 'artifact = { file = "out.txt" }') +
        flag(
          'says',
          'outcome',
          'artifact = { file = "out.txt", contains = ["done"], not_contains = ["TODO"] }',
        ),
    );
    expect(await reached(task, [[shell('true')], [writeFile('out.txt', 'done\n')]])).toEqual({
      made: 2,
      says: 'post',
    });
    expect(await reached(task, [[writeFile('out.txt', 'done, TODO\n')]])).toEqual({ made: 1, says: false });
    expect(await reached(task, [])).toEqual({ made: false, says: false });
  });

  it('command and commands_in_order: programs that really ran, in the listed order', async () => {
    const run = (argv: string[]) => traced(argv.join(' '), { processes: [proc(argv)] });
    const task = taskWith(
      flag('listed', 'process', 'command = { pattern = "^ls\\\\b" }') +
        flag('counted', 'process', 'command = "^wc -l"') +
        flag('order', 'process', 'commands_in_order = ["listed", "counted"]'),
    );
    expect(await reached(task, [[run(['ls', '-la'])], [run(['wc', '-l', 'notes.txt'])]])).toEqual({
      listed: 1,
      counted: 2,
      order: 2,
    });
    expect((await reached(task, [[run(['wc', '-l', 'notes.txt'])], [run(['ls'])]])).order).toBe(false);
    // Named in a command's text but never run: `echo ls` ran echo.
    expect((await reached(task, [[run(['echo', 'ls'])]])).listed).toBe(false);
  });
});
