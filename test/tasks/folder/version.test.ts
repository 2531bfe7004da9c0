/**
 * A folder task's version hashes what decides its verdicts (files, checks, flag code, limits) and
 * not what only describes them; a TypeScript task keeps hashing its descriptions, which stand in for
 * its check code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { getTask } from '../../../src/catalogue/built-in.js';
import { loadTaskFolder } from '../../../src/catalogue/native/load.js';
import { taskVersion } from '../../../src/tasks/version.js';
import { MINIMAL_FILES, MINIMAL_TOML, removeTaskFolders, taskFolder } from './task-folder.js';

afterEach(removeTaskFolders);

const versionOf = (files: Record<string, string>) =>
  taskVersion(loadTaskFolder(taskFolder({ ...MINIMAL_FILES, ...files })));
const withToml = (from: string, to: string) => versionOf({ 'task.toml': MINIMAL_TOML.replace(from, to) });

describe('a folder task’s version', () => {
  const base = versionOf({});

  it('is stable, and ignores descriptions and comments', () => {
    expect(versionOf({})).toBe(base);
    expect(withToml('description = "Read notes.txt."', 'description = "Saw the notes."')).toBe(base);
    expect(
      withToml('description = "Write out.txt from notes.txt."', 'description = "Another summary."'),
    ).toBe(base);
    expect(withToml('max_turns = 5', '# a note\nmax_turns = 5')).toBe(base);
  });

  it('changes with every check, limit, file and the prompt', () => {
    const changed = [
      withToml('read = { file = "notes.txt" }', 'read = { file = "notes.txt", at_least = 0.9 }'),
      withToml('contains = ["done"]', 'contains = ["done!"]'),
      withToml('kind = "outcome"', 'kind = "process"'),
      withToml('artifact = {', 'weight = 2\nartifact = {'),
      withToml('artifact = {', 'absence = true\nartifact = {'),
      withToml('max_turns = 5', 'max_turns = 6'),
      withToml('allowed_writes = ["/out.txt"]', 'allowed_writes = ["/out.txt", "/x"]'),
      versionOf({ 'files/notes.txt': 'one\n' }),
      versionOf({ 'hidden/t.py': 'x\n' }),
      versionOf({ 'instruction.md': 'Another prompt.' }),
    ];
    expect(new Set([base, ...changed]).size).toBe(changed.length + 1);
  });

  it('a task written in TypeScript (a bundled skill) still hashes its flag descriptions', () => {
    const ts = getTask('tool_mirage_v1');
    if (ts === undefined) throw new Error('tool_mirage_v1 missing');
    const reworded = {
      ...ts,
      flags: ts.flags.map((f, i) => (i === 0 ? { ...f, description: `${f.description}.` } : f)),
    };
    expect(taskVersion(reworded)).not.toBe(taskVersion(ts));
  });
});

it('the scripted runs are no part of the version: they prove the task, they do not define it', () => {
  const dir = taskFolder(MINIMAL_FILES);
  const before = taskVersion(loadTaskFolder(dir));
  writeFileSync(
    join(dir, 'task.toml'),
    MINIMAL_TOML.replace('description = "Writes without reading."', 'description = "Blind."'),
  );
  expect(taskVersion(loadTaskFolder(dir))).toBe(before);
});
