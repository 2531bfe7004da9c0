/**
 * A task folder from --tasks-dir is untrusted, like a skill folder (and read by the same walk,
 * src/skills/folder.ts): each attack is tried, and what counts is that no byte of a host file outside
 * the folder reaches the task, and that a folder too big to be a task is refused without reading it.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import { UsageError } from '../../../src/util/errors.js';
import {
  MINIMAL_FILES,
  MINIMAL_TOML,
  removeTaskFolders,
  taskFolder,
} from '../../tasks/folder/task-folder.js';

afterEach(removeTaskFolders);

const SECRET = 'HOST-SECRET-41c2: must never leave the host file';

function refusal(dir: string): string {
  try {
    loadTaskFolder(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('the folder loaded');
}

/** A secret file beside the task folder, outside it. */
function secretBeside(dir: string): string {
  const file = join(dir, '..', 'shadow');
  writeFileSync(file, SECRET);
  return file;
}

describe('a hostile task folder', () => {
  it('a link out of the folder, as a workspace file, is refused and nothing of its target is read', () => {
    const dir = taskFolder(MINIMAL_FILES);
    symlinkSync(secretBeside(dir), join(dir, 'files/notes-copy.txt'));
    const message = refusal(dir);
    expect(message).toMatch(/files\/notes-copy\.txt: a link to .*shadow, outside the task folder/);
    expect(message).not.toContain(SECRET);
  });

  it('a manifest that is a link out of the folder is refused', () => {
    const { 'task.toml': _, ...rest } = MINIMAL_FILES;
    const dir = taskFolder(rest);
    const outside = join(dir, '..', 'task.toml');
    writeFileSync(outside, MINIMAL_TOML);
    symlinkSync(outside, join(dir, 'task.toml'));
    expect(refusal(dir)).toMatch(/task\.toml: a link to .*, outside the task folder/);
  });

  it('a $file reference to a link out of the folder never reads the link', () => {
    const dir = taskFolder(MINIMAL_FILES);
    symlinkSync(secretBeside(dir), join(dir, 'solution/leak.txt'));
    const toml = MINIMAL_TOML.replace('"solution/out.txt"', '"solution/leak.txt"');
    writeFileSync(join(dir, 'task.toml'), toml);
    const message = refusal(dir);
    expect(message).toMatch(/solution\/leak\.txt: a link to .*outside the task folder/);
    expect(message).not.toContain(SECRET);
  });

  it('a link to a file inside the folder is kept, as that file', () => {
    const dir = taskFolder({ ...MINIMAL_FILES, 'hidden/keep.txt': '' });
    symlinkSync('../files/notes.txt', join(dir, 'hidden/notes.txt'));
    expect(loadTaskFolder(dir).hiddenFiles).toEqual([
      { path: 'keep.txt', content: '' },
      { path: 'notes.txt', content: 'one\ntwo\nthree\nfour\n' },
    ]);
  });

  it('a fifo is refused without being opened', () => {
    const dir = taskFolder(MINIMAL_FILES);
    expect(spawnSync('mkfifo', [join(dir, 'files/pipe')]).status).toBe(0);
    expect(refusal(dir)).toMatch(/files\/pipe: a fifo, not a regular file/);
  });

  it('a folder past 32 MiB is refused at the walk, before any file is read', () => {
    const dir = taskFolder(MINIMAL_FILES);
    // Sparse: the size is what counts, and reading it would take the whole 40 MiB.
    const fd = openSync(join(dir, 'files/huge.bin'), 'w');
    ftruncateSync(fd, 40 * 1024 * 1024);
    closeSync(fd);
    expect(refusal(dir)).toMatch(
      /files\/huge\.bin: 40 MiB, and the folder passes 32 MiB with it: is this a task\?/,
    );
  });

  it('a link farm stops the walk after 20 problems', () => {
    const dir = taskFolder(MINIMAL_FILES);
    mkdirSync(join(dir, 'files/links'));
    for (let i = 0; i < 40; i++)
      symlinkSync('/nonexistent', join(dir, `files/links/l${String(i).padStart(2, '0')}`));
    const lines = refusal(dir).split('\n');
    expect(lines.at(-1)).toMatch(/stopped looking after 20 problems/);
    expect(lines.length).toBeLessThanOrEqual(22);
  });
});
