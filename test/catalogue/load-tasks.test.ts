import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtIn } from '../../src/catalogue/built-in.js';
import { loadTasks, taskFoldersIn } from '../../src/catalogue/load-tasks.js';
import { HELPDESK_DIR } from '../../src/dialogue/pack.js';
import { packageRoot } from '../../src/util/package-root.js';
import { MINIMAL_FILES, removeTaskFolders, taskFolder } from '../tasks/folder/task-folder.js';

afterEach(removeTaskFolders);

/** A root holding one folder of every format: a task folder, a skill, a dialogue pack, a Harbor task. */
function mixedRoot(): string {
  const root = dirname(taskFolder(MINIMAL_FILES, 'a_native_v1'));
  cpSync(join(packageRoot(), 'skills', 'report'), join(root, 'b_skill'), { recursive: true });
  cpSync(HELPDESK_DIR, join(root, 'c_pack'), { recursive: true });
  const harbor = join(root, 'd_harbor');
  mkdirSync(join(harbor, 'tests'), { recursive: true });
  mkdirSync(join(harbor, 'environment'), { recursive: true });
  writeFileSync(join(harbor, 'environment', 'Dockerfile'), 'FROM debian:bookworm-slim\nWORKDIR /app\n');
  writeFileSync(join(harbor, 'task.toml'), 'version = "1.0"\n');
  writeFileSync(join(harbor, 'instruction.md'), 'Say hello.\n');
  writeFileSync(join(harbor, 'tests', 'test.sh'), '#!/bin/sh\necho 1 > /logs/verifier/reward.txt\n');
  return root;
}

describe('loadTasks', () => {
  it('reads every folder by the format that claims it, in name order', () => {
    const root = mixedRoot();
    expect(taskFoldersIn(root).map((d) => d.slice(root.length + 1))).toEqual([
      'a_native_v1',
      'b_skill',
      'c_pack',
      'd_harbor',
    ]);
    const found = loadTasks([root], '--tasks-dir');
    const kinds = found.tasks.map((t) => t.kind);
    expect(kinds[0]).toBe('sandbox');
    expect(kinds[1]).toBe('skill');
    // The pack's scenarios are one dialogue task each.
    expect(kinds.slice(2).every((k) => k === 'dialogue')).toBe(true);
    expect(kinds.length).toBeGreaterThan(3);
    expect(found.skills.map((s) => s.dir)).toEqual([join(root, 'b_skill')]);
    // A Harbor task also has a task.toml: it is claimed as Harbor, never read as a native folder.
    expect(found.harbor.map((h) => h.id)).toEqual(['d_harbor']);
  });

  it('a folder claimed by no format is a usage error naming what it looked for', () => {
    const root = dirname(taskFolder({ 'notes.txt': 'x' }, 'not_a_task'));
    expect(() => loadTasks([root], '--tasks-dir')).toThrow(
      /no task folder here; looked for .*bench_manifest\.json.*policy\.md and scenarios\//,
    );
  });

  it('reports the problems of every broken folder at once', () => {
    const root = mixedRoot();
    writeFileSync(join(root, 'a_native_v1', 'task.toml'), 'max_turns = "many"\n');
    writeFileSync(join(root, 'b_skill', 'bench_manifest.json'), '{ not json');
    expect(() => loadTasks([root], '--tasks-dir')).toThrow(/a_native_v1[\s\S]*b_skill/);
  });
});

describe('the built-in tasks', () => {
  it('are the folders under tasks/ and skills/, read by the same loaders: task folders, skills, the helpdesk pack', () => {
    const { tasks, skills } = builtIn();
    const kinds = new Set(tasks.map((t) => t.kind));
    expect([...kinds]).toEqual(expect.arrayContaining(['sandbox', 'skill', 'dialogue']));
    expect(skills.map((s) => s.spec.id)).toEqual(tasks.filter((t) => t.kind === 'skill').map((t) => t.id));
    const dialogue = tasks.filter((t) => t.kind === 'dialogue');
    expect(dialogue.length).toBe(18);
    for (const t of dialogue) expect(t.kind === 'dialogue' && t.dialogue.pack).toBe(HELPDESK_DIR);
  });
});
